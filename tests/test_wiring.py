"""Every collaborator is passed at construction (issue 53): no module of the host or the
adapters sets a function or another object's collaborator on an object after it is built —
"go to definition" on a collaborator leads to the constructor that received it. What a
platform only tells later (a bot's own name, a connection) has a named operation instead."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHECKED = ("bot", "adapters")


def function_names(paths: list[Path]) -> set[str]:
    """Every function and method defined in ``paths``: a value of one of these names is a
    collaborator (a callback, a bound method), not data."""
    names: set[str] = set()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                names.add(node.name)
    return names


def wiring_after_construction(path: Path, functions: set[str]) -> list[str]:
    """Assignments ``x.attr = value`` (``x`` not ``self``) whose value is a function — a
    lambda, or a name or attribute naming a function — and assignments reaching through
    another object (``self.keeper.records = …``, ``manager.keeper.committed = …``)."""
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    defined_here = {
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    }  # a bare name is a function only where this module defines one of that name
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            if not isinstance(target, ast.Attribute):
                continue
            owner = target.value
            through = isinstance(owner, ast.Attribute)  # a.b.c = …: b is someone else's
            own = isinstance(owner, ast.Name) and owner.id in ("self", "cls")
            value = node.value
            if isinstance(value, ast.Attribute):
                a_function = value.attr in functions  # a bound method, or a module's function
            else:
                a_function = (
                    isinstance(value, ast.Lambda) or getattr(value, "id", "") in defined_here
                )
            if through or (a_function and not own):
                found.append(f"{path.name}:{node.lineno} {ast.unparse(target)}")
    return found


def checked_paths() -> list[Path]:
    return sorted(p for root in CHECKED for p in (ROOT / root).rglob("*.py"))


def test_no_collaborator_is_set_after_construction():
    paths = checked_paths()
    functions = function_names(paths)
    assert len(paths) > 100 and "is_member" in functions  # the walk found the code
    assert [w for path in paths for w in wiring_after_construction(path, functions)] == []


def test_the_check_finds_wiring_after_construction(tmp_path: Path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "def setup(manager, adapter, web, table, effects):\n"
        "    manager.keeper.records = records\n"  # through another object
        "    web.may_watch = adapter.is_member\n"  # a bound method
        "    table.clock = lambda: 0.0\n"  # a lambda
        "    copy.replay = replay\n"  # a local value that shares a function's name: fine
        "    effects.out = [1]\n"  # data: fine
        "    self.send = send\n",  # its own field: fine
        encoding="utf-8",
    )
    found = wiring_after_construction(sample, {"is_member"})
    assert [line.split(" ")[1] for line in found] == [
        "manager.keeper.records",
        "web.may_watch",
        "table.clock",
    ]
