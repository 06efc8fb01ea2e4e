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
                names = [
                    c.value for c in [node.left, *node.comparators] if isinstance(c, ast.Constant)
                ]
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


# ----------------------------------------------------------------- the host's rooms

LAYERS = (
    ("i18n",),
    ("ops", "reading", "views", "community"),
    ("pictures", "ai_seats"),
    ("games",),
    ("table",),
    ("commands",),
    ("page",),
    ("hosting",),
    ("__main__",),
)
"""`bot/`'s sub-packages from the bottom up: a module may import its own sub-package and those
in layers below it, never one beside or above. The catalogues (`i18n`) are under everything;
what people type is read (`reading`) and what the host says is built (`views`) before any
table exists; the games' fronts draw on those and on the pictures; a table (`table`) asks its
game's front; the commands route to a table's handlers; the web page's questions read a table
and the registry; `hosting` keeps tables and runs all of the above; ``python -m bot`` starts it."""


def sub_package(module: str) -> str:
    """``bot.table.lobby`` → ``table``; ``bot.__main__`` → ``__main__``."""
    return module.split(".")[1] if module.count(".") else module


def layer_of(package: str) -> int:
    return next(i for i, layer in enumerate(LAYERS) if package in layer)


def imports_across_layers(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a module from a sub-package beside or above its own."""
    found = []
    for module, imported in sorted(graph.items()):
        own = sub_package(module)
        for other in sorted(imported):
            theirs = sub_package(other)
            if theirs != own and other != "bot" and layer_of(theirs) >= layer_of(own):
                found.append(f"{module} → {other}")
    return found


def test_every_host_module_lives_in_a_sub_package_with_a_docstring():
    loose = [p.name for p in (ROOT / "bot").glob("*.py") if p.stem not in ("__init__", "__main__")]
    assert loose == []
    packages = sorted(p.parent.name for p in (ROOT / "bot").glob("*/__init__.py"))
    assert sorted(name for layer in LAYERS for name in layer if name != "__main__") == packages
    for package in packages:
        assert ast.get_docstring(
            ast.parse((ROOT / "bot" / package / "__init__.py").read_text(encoding="utf-8"))
        ), package


def test_sub_packages_import_only_the_layers_below():
    graph = import_graph("bot")
    assert "bot.games" in graph["bot.table.table_fields"]  # the walk sees imports across rooms
    assert imports_across_layers(graph) == []


def test_the_layer_check_finds_an_import_upwards():
    graph = {
        "bot.games.game_front": {"bot.table.state"},  # upwards: refused
        "bot.reading.echo": {"bot.views.outgoing"},  # beside: refused
        "bot.table.state": {"bot.games.game_front", "bot.table.seats"},  # below, own: fine
    }
    assert imports_across_layers(graph) == [
        "bot.games.game_front → bot.table.state",
        "bot.reading.echo → bot.views.outgoing",
    ]


MIRRORS = (
    ("bot/games/situan", "bot/games/erqiwang"),
    ("adapters/telegram", "adapters/discord"),
)
"""Folders that mirror each other on purpose — a game's front beside the other's, a platform's
adapter beside the other's — so a module of one has its namesake in the other."""


def test_no_two_host_modules_share_a_name():
    mirrored = {folder for pair in MIRRORS for folder in pair}
    names: dict[str, list[str]] = {}
    for root in ("bot", "adapters", "storage"):
        for path in (ROOT / root).rglob("*.py"):
            folder = str(path.parent.relative_to(ROOT))
            if path.stem not in ("__init__", "__main__") and folder not in mirrored:
                names.setdefault(path.stem, []).append(str(path.relative_to(ROOT)))
    assert {name: paths for name, paths in names.items() if len(paths) > 1} == {}


TABLE = ROOT / "bot" / "table" / "state.py"
TABLE_FIELDS = ROOT / "bot" / "table" / "table_fields.py"
"""A table's fields are set up in `TableFields.__init__` and changed by `Table`'s methods only."""
MUTATORS = frozenset(
    {"append", "add", "pop", "clear", "discard", "update", "setdefault", "extend", "remove"}
)


def table_fields() -> set[str]:
    return {
        node.attr
        for path in (TABLE, TABLE_FIELDS)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute)
        and isinstance(node.ctx, ast.Store)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    }


def writes_outside_the_constructor(path: Path) -> list[str]:
    """``self.<field>`` written in ``path`` anywhere but in ``__init__`` (a question's memo, a
    ``_``-named field that caches its last answer, excepted)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef) and node.name != "__init__":
            for inner in ast.walk(node):
                if (
                    isinstance(inner, ast.Attribute)
                    and isinstance(inner.ctx, ast.Store)
                    and isinstance(inner.value, ast.Name)
                    and inner.value.id == "self"
                    and not inner.attr.startswith("_")
                ):
                    found.append(f"{node.name}: self.{inner.attr}")
    return found


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
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in MUTATORS
        ):
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
    assert writes_outside_the_constructor(TABLE_FIELDS) == []  # the fields' module reads only


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
        "bot.commands.steps",
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


# ----------------------------------------------------------------- sizes and the formatter

MODULE_LINES_AT_MOST = 450
FORMATTER_SKIPS_AT_MOST = 100
"""`# fmt: skip` is for tables of data the formatter would spread over many lines; elsewhere
the formatter's own wrapping is the house style."""


def test_no_module_of_the_project_is_over_450_lines():
    long = {
        str(path.relative_to(ROOT)): lines
        for root in ("engine", "bot", "adapters", "storage")
        for path in (ROOT / root).rglob("*.py")
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MODULE_LINES_AT_MOST
    }
    assert long == {}


def test_the_formatter_is_skipped_for_tables_of_data_only():
    skips = sum(
        path.read_text(encoding="utf-8").count("# fmt: skip")
        for root in ("engine", "bot", "adapters", "storage", "tests", "bench", "tools")
        for path in (ROOT / root).rglob("*.py")
    )
    assert 0 < skips <= FORMATTER_SKIPS_AT_MOST


def test_the_host_imports_no_adapter_but_at_its_entry():
    """Imports point from the adapters to the host, never back: only ``python -m bot``
    (`bot/__main__.py`, which starts them) names an adapter."""
    offenders = {
        str(path.relative_to(ROOT)): sorted(
            m for m in imported_modules(path) if m.startswith("adapters")
        )
        for path in (ROOT / "bot").rglob("*.py")
        if path.name != "__main__.py"
    }
    assert {k: v for k, v in offenders.items() if v} == {}
    assert any(m.startswith("adapters") for m in imported_modules(ROOT / "bot" / "__main__.py"))
