"""A command's facts live in its `bot.commands.registry.Spec` alone (issue 53): no module of the
host or the adapters tells commands apart by their names, and each game's commands are the
registry's game commands."""

from __future__ import annotations

import ast
from pathlib import Path

from bot.commands.registry import GAME_COMMANDS, NAMES
from bot.games import FRONTS

ROOT = Path(__file__).resolve().parents[1]
NAMED = ("name", "names")
"""What a variable or attribute holding a command's name is called here."""


def _strings(node: ast.expr) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Tuple | ast.Set | ast.List):
        return [s for element in node.elts for s in _strings(element)]
    return []


def _is_a_name(node: ast.expr) -> bool:
    return (isinstance(node, ast.Name) and node.id in NAMED) or (
        isinstance(node, ast.Attribute) and node.attr in NAMED
    )


def command_names_compared(source: str) -> list[str]:
    """The command names a module compares a name with (``name == "join"``, ``command.name
    in ("hand", "join")``) or keeps in a set of its own (``frozenset({"pick", "hand"})``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Set | ast.Tuple | ast.List):  # a set of commands kept apart
            named = [s for s in _strings(node) if s in NAMES]
            found += named if len(named) > 1 else []
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_is_a_name(side) for side in sides):
                found += [s for side in sides for s in _strings(side) if s in NAMES]
    return list(dict.fromkeys(found))


def test_no_module_outside_the_registry_tells_commands_apart_by_name():
    modules = [*(ROOT / "bot").rglob("*.py"), *(ROOT / "adapters").rglob("*.py")]
    found = {
        str(path.relative_to(ROOT)): names
        for path in modules
        if path != ROOT / "bot" / "registry.py"
        and (names := command_names_compared(path.read_text(encoding="utf-8")))
    }
    assert found == {}
    assert len(modules) > 80  # the walk found the code


def test_the_check_would_catch_a_name_compared_in_a_module():
    assert command_names_compared('if command.name in ("hand", "join"): pass') == ["hand", "join"]
    assert command_names_compared('wants = name == "hand"') == ["hand"]
    assert command_names_compared('if name == "decks": pass') == []  # a game option, not a command
    assert command_names_compared('LEFT_OUT = frozenset({"pick", "hand"})') == ["pick", "hand"]


def test_each_games_commands_are_the_registrys_game_commands():
    for front in FRONTS.values():
        assert front.commands <= GAME_COMMANDS, front.name
    assert set().union(*(front.commands for front in FRONTS.values())) == GAME_COMMANDS
    assert {"play", "pass", "bid", "show"} <= GAME_COMMANDS
