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


# ----------------------------------------------------------------- the host's inside


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(package: str) -> dict[str, set[str]]:
    """Each module of ``package`` → the modules of ``package`` it imports (type-only imports
    too: a circle drawn only for the type checker is still a circle to read)."""
    modules = {module_name(p): p for p in (ROOT / package).rglob("*.py")}

    def owner(name: str) -> str:  # ``bot.x.Name`` → the module ``bot.x``
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name

    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(owner(alias.name) for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                # ``from pkg import sub`` imports the module ``pkg.sub``, not ``pkg``'s init
                found.update(owner(f"{node.module}.{alias.name}") for alias in node.names)
        graph[name] = found - {"", name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_circle_in_bot():
    graph = import_graph("bot")
    assert len(graph) > 40 and "bot.table.state" in graph["bot.table.lobby"]
    assert circles(graph) == []


def test_the_circle_check_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


TABLE = ROOT / "bot" / "table.py"
MUTATORS = frozenset(
    {"append", "add", "pop", "clear", "discard", "update", "setdefault", "extend", "remove"}
)


def table_fields() -> set[str]:
    tree = ast.parse(TABLE.read_text(encoding="utf-8"))
    return {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
        and isinstance(node.value, ast.Name) and node.value.id == "self"
    }  # fmt: skip


def writes_to_a_table(path: Path, fields: set[str]) -> list[str]:
    """Assignments to ``<x>.<field>`` (or its items) and mutating calls on it, where ``x``
    names a table (``table``, ``existing``…: any name but ``self``)."""

    def table_field(node: ast.expr) -> str | None:
        while isinstance(node, ast.Subscript):
            node = node.value
        if isinstance(node, ast.Attribute) and node.attr in fields:
            owner = node.value
            if isinstance(owner, ast.Name) and "table" in owner.id:
                return f"{owner.id}.{node.attr}"
        return None

    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            for target in node.targets:
                targets += target.elts if isinstance(target, ast.Tuple) else [target]
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in MUTATORS):  # fmt: skip
            targets = [node.func.value]
        for target in targets:
            written = table_field(target)
            if written is not None:
                found.append(f"{path.name}:{node.lineno} {written}")
    return found


def test_no_module_but_the_table_writes_a_table_field():
    fields = table_fields()
    assert {"state", "seats", "deadline", "hand", "ledger", "host"} <= fields
    paths = [p for root in ("bot", "adapters") for p in (ROOT / root).rglob("*.py")]
    assert [w for p in paths if p != TABLE for w in writes_to_a_table(p, fields)] == []


def test_the_write_check_finds_writes(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "table.state = 1\ntable.seats[2] = None\nother_table.ledger.update({})\n"
        "table.turn_count += 1\nself.state = 2\nseat.ready = True\n",
        encoding="utf-8",
    )
    written = sorted(w.split(" ")[1] for w in writes_to_a_table(sample, table_fields()))
    assert written == ["other_table.ledger", "table.seats", "table.state", "table.turn_count"]


def test_no_adapter_imports_the_table_or_its_handlers():
    inside = (
        "bot.table.state",
        "bot.table.lobby",
        "bot.table.playing",
        "bot.table.steps",
        "bot.hosting.open_tables",
    )
    offenders = {
        str(path.relative_to(ROOT)): [m for m in imported_modules(path) if m.startswith(inside)]
        for path in (ROOT / "adapters").rglob("*.py")
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_every_command_has_its_help_text_in_the_three_catalogues():
    from babel.messages.pofile import read_po

    from bot.commands.registry import COMMANDS
    from bot.i18n import missing_translations

    ids = [spec.summary for spec in COMMANDS]
    ids += [spec.usage for spec in COMMANDS if spec.usage and spec.usage.upper() == spec.usage]
    ids += [option.about for spec in COMMANDS for option in spec.options]
    assert len(ids) > 40
    assert missing_translations("zh-Hans", ids) == []
    assert missing_translations("zh-Hant", ids) == []
    with (ROOT / "bot" / "i18n" / "locales" / "en.po").open("rb") as handle:
        english = read_po(handle)
    assert [i for i in ids if english.get(i) is None] == []


# ----------------------------------------------------------------- game names

GAME_NAMES = ("situan", "erqiwang")
GAME_HOMES = (
    "engine/situan", "engine/erqiwang", "engine/ai/situan", "engine/ai/erqiwang",
    "bot/games/situan", "bot/games/erqiwang", "engine/games.py",
)  # fmt: skip
"""Where a game may be named: its own packages, and the registry of games."""
NAMELESS_ROOTS = ("engine", "bot", "adapters", "storage")
"""Where no other module names a game: the host, the adapters and storage ask the registry
and the games' fronts."""


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
