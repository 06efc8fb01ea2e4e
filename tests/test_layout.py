"""The host knows no game: only `bot/games/` imports a game's package, and the adapters reach
the games through `bot` alone (design.md: adapters → bot → engine)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAME_PACKAGES = ("engine.situan", "engine.erqiwang", "engine.ai.situan", "engine.ai.erqiwang")


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def host_modules() -> list[Path]:
    games = ROOT / "bot" / "games"
    return [p for p in (ROOT / "bot").rglob("*.py") if games not in p.parents]


def test_no_host_module_outside_bot_games_imports_a_game_package():
    offenders = {
        str(path.relative_to(ROOT)): sorted(
            m for m in imported_modules(path) if m.startswith(GAME_PACKAGES)
        )
        for path in host_modules()
    }
    assert {k: v for k, v in offenders.items() if v} == {}
    assert len(host_modules()) > 15  # the walk found the host


def test_the_check_would_catch_a_game_import():
    sample = ROOT / "bot" / "games" / "situan" / "front.py"
    assert any(m.startswith(GAME_PACKAGES) for m in imported_modules(sample))


def test_adapters_import_bot_never_engine():
    offenders = {
        str(path.relative_to(ROOT)): [m for m in imported_modules(path) if m.startswith("engine")]
        for path in (ROOT / "adapters").rglob("*.py")
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_no_host_module_branches_on_a_game_name():
    for path in host_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare):
                names = [c.value for c in [node.left, *node.comparators]
                         if isinstance(c, ast.Constant)]  # fmt: skip
                assert "situan" not in names and "erqiwang" not in names, (path, node.lineno)


GAME_NAMES = ("situan", "erqiwang")
GAME_HOMES = (
    "engine/situan", "engine/erqiwang", "engine/ai/situan", "engine/ai/erqiwang",
    "bot/games/situan", "bot/games/erqiwang", "engine/games.py",
)  # fmt: skip
"""Where a game may be named: its own packages, and the registry of games."""
NAMELESS_ROOTS = ("engine", "bot/pictures", "bot/games")
"""Where no other module names a game. To widen to all of ``bot`` and ``adapters`` once their
rewrite is in (the host then asks the registry and the fronts instead)."""


def modules_naming_no_game() -> list[Path]:
    homes = [ROOT / home for home in GAME_HOMES]
    return [
        path
        for root in NAMELESS_ROOTS
        for path in sorted((ROOT / root).rglob("*.py"))
        if not any(path == home or home in path.parents for home in homes)
    ]


def game_names_in(path: Path) -> list[int]:
    """The lines of ``path`` with a string literal that is a game's name."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and node.value in GAME_NAMES
    ]


def test_no_module_outside_the_games_and_their_registry_names_a_game():
    offenders = {
        str(path.relative_to(ROOT)): game_names_in(path) for path in modules_naming_no_game()
    }
    assert {k: v for k, v in offenders.items() if v} == {}
    assert len(modules_naming_no_game()) > 30  # the walk found the modules


def test_the_naming_check_would_catch_a_game_name():
    assert game_names_in(ROOT / "engine" / "games.py")
    assert ROOT / "engine" / "games.py" not in modules_naming_no_game()
    assert ROOT / "bot" / "games" / "__init__.py" in modules_naming_no_game()
