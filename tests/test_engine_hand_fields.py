"""A hand's fields are written only by its own package's named operations.

A hand (`engine.situan.SituanHand`, `engine.erqiwang.ErqiwangHand`) keeps the state its
rules' modules share; those modules change it, each in operations named for what they do
(`engine.erqiwang.tricks.place`, `engine.situan.show.answer`…). This test reads the source of
the engine, the host and the fronts, finds every write to a hand's field — an assignment, an
augmented assignment or a ``del`` of ``hand.FIELD`` or ``hand.FIELD[...]``, or a call of a
list or dict method that changes ``hand.FIELD`` in place — and holds it to `OPERATIONS`: no
module outside the hand's package writes a field (the ``hard`` player's sampled hands are made
by `SituanHand.standing_where`; `engine.dispatch` enters history through ``hand.record``), and
inside it, the functions that write fields are the ones named here. Whoever adds a write names
its operation in this table, so that the map of what changes a hand stays whole.

Count them: ``python tests/test_engine_hand_fields.py`` prints every write outside the hand
modules, and the total.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HAND_MODULES = {"engine/erqiwang/hand.py", "engine/situan/hand.py"}
HAND_PACKAGES = ("engine/erqiwang/", "engine/situan/")
HAND_TYPES = ("ErqiwangHand", "SituanHand")
IN_PLACE = frozenset(
    [
        "append",
        "extend",
        "insert",
        "remove",
        "pop",
        "clear",
        "update",
        "setdefault",
        "sort",
        "reverse",
    ]
)
"""List, dict and set methods that change the value they are called on."""

OPERATIONS: dict[str, set[str]] = {
    "engine/erqiwang/bidding.py": {"place_bid", "place_pass", "_close"},
    "engine/erqiwang/bonus.py": {"record"},
    "engine/erqiwang/declaring.py": {"set_trump", "bury_cards", "surrender"},
    "engine/erqiwang/legal.py": {"seat_leads", "_throw_plays"},
    "engine/erqiwang/tricks.py": {
        "play",
        "_play_single",
        "place",
        "_compare_single",
        "_compare",
        "_close_trick",
        "_after_trump_played",
        "announce_voids",
        "announce_trump_counts",
    },
    "engine/situan/autoplay.py": {"set_auto"},
    "engine/situan/ending.py": {"end"},
    "engine/situan/rounds.py": {"place", "take_kings", "record_pass", "go_out"},
    "engine/situan/show.py": {"start", "open_show", "cancel", "reveal"},
}
"""Per module of a hand's package (its hand module aside), the functions that write the
hand's fields."""


def _written(node: ast.AST) -> Iterator[ast.expr]:
    """The expressions ``node`` writes to, or changes in place."""
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, ast.AugAssign | ast.AnnAssign):
        targets = [node.target]
    elif isinstance(node, ast.Delete):
        targets = node.targets
    elif (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in IN_PLACE
    ):
        targets = [node.func.value]
    for target in targets:
        yield from target.elts if isinstance(target, ast.Tuple) else [target]


def _hand_field(target: ast.expr, hands: set[str]) -> str | None:
    """The hand field ``target`` is, or is inside of (``hand.auto[seat]``: ``auto``)."""
    field = None
    while isinstance(target, ast.Attribute | ast.Subscript):
        if isinstance(target, ast.Attribute):
            field = target.attr
        target = target.value
    if isinstance(target, ast.Name) and target.id in hands:
        return field
    return None


def _hand_names(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The names a function knows a hand by: ``hand``, and parameters typed as a hand."""
    names = {"hand"}
    arguments = function.args
    for argument in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]:
        if argument.annotation is not None and any(
            kind in ast.unparse(argument.annotation) for kind in HAND_TYPES
        ):
            names.add(argument.arg)
    return names


def writes(folders: list[Path]) -> Iterator[tuple[str, str, int, str, str]]:
    """Every write to a hand field outside the hand modules: (module, function, line, field,
    what is written)."""
    for folder in folders:
        for path in sorted(folder.rglob("*.py")):
            module = path.relative_to(ROOT).as_posix()
            if module in HAND_MODULES:
                continue
            for function in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                hands = _hand_names(function)
                for node in ast.walk(function):
                    for target in _written(node):
                        field = _hand_field(target, hands)
                        if field is not None:
                            yield module, function.name, node.lineno, field, ast.unparse(target)


def writes_by_operation(folders: list[Path]) -> dict[tuple[str, str], set[str]]:
    """Per (module, function), the hand fields it writes, outside the hand modules."""
    found: dict[tuple[str, str], set[str]] = {}
    for module, function, _, field, _ in writes(folders):
        found.setdefault((module, function), set()).add(field)
    return found


SOURCES = [ROOT / "engine", ROOT / "bot", ROOT / "adapters"]


def test_no_module_outside_a_hand_package_writes_a_hand_field() -> None:
    outside = {
        where: fields
        for where, fields in writes_by_operation(SOURCES).items()
        if not where[0].startswith(HAND_PACKAGES)
    }
    assert outside == {}


def test_inside_its_package_a_hand_is_written_by_the_named_operations_only() -> None:
    writers: dict[str, set[str]] = {}
    for module, function in writes_by_operation(SOURCES):
        writers.setdefault(module, set()).add(function)
    assert writers == OPERATIONS


def test_the_count_sees_each_kind_of_write() -> None:
    source = """
def f(hand: SituanHand, other: list[int]) -> None:
    hand.turn = 1
    hand.auto[0] = True
    hand.passes += 1
    hand.plays.append(2)
    del hand.finish[0]
    other.append(3)
    hand.cards_of(0)
"""
    function = ast.parse(source).body[0]
    assert isinstance(function, ast.FunctionDef)
    hands = _hand_names(function)
    fields = {
        _hand_field(target, hands) for node in ast.walk(function) for target in _written(node)
    }
    assert fields == {"turn", "auto", "passes", "plays", "finish", None}


if __name__ == "__main__":
    found = sorted({(module, line, target) for module, _, line, _, target in writes(SOURCES)})
    for module, line, target in found:
        print(f"{module}:{line}: {target}")
    print(len(found), "writes to hand fields outside the hand modules")
