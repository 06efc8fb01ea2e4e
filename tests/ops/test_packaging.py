"""What an operator installs: the runtime dependencies are exactly what the code imports, the
constraints file pins each of them, the licence file matches the metadata, and the
``cardbot`` console script runs the bot as ``python -m bot`` does."""

from __future__ import annotations

import ast
import importlib.util
import os
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).parents[2]
PACKAGES = ("engine", "bot", "adapters", "storage")
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def imported_top_levels() -> set[str]:
    """Every top-level module the shipped packages import (at run time or for type checks)."""
    names: set[str] = set()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.Import):
                    names.update(alias.name.partition(".")[0] for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names.add(node.module.partition(".")[0])
    return names


def third_party_distributions() -> set[str]:
    """The distributions that provide what the shipped packages import."""
    providers = metadata.packages_distributions()
    ours = set(PACKAGES)
    found = set()
    for name in imported_top_levels() - ours - set(sys.stdlib_module_names):
        assert name in providers, f"{name} is imported but no installed distribution has it"
        found.update(canonicalize_name(d) for d in providers[name])
    return found


def test_the_runtime_dependencies_are_exactly_what_the_code_imports():
    declared = {canonicalize_name(Requirement(r).name) for r in PROJECT["dependencies"]}
    assert third_party_distributions() == declared


def test_no_webhook_extra_of_python_telegram_bot():
    """The webhook server is aiohttp's; PTB's webhooks extra would only bring tornado."""
    telegram = next(
        Requirement(r) for r in PROJECT["dependencies"] if r.startswith("python-telegram-bot")
    )
    assert "webhooks" not in telegram.extras
    assert "rate-limiter" in telegram.extras


def test_the_constraints_file_pins_every_runtime_dependency_within_its_range():
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            pins[canonicalize_name(name)] = version
    for text in PROJECT["dependencies"] + PROJECT["optional-dependencies"]["test"]:
        requirement = Requirement(text)
        version = pins.get(canonicalize_name(requirement.name))
        assert version is not None, f"{requirement.name} is not pinned in constraints.txt"
        assert requirement.specifier.contains(version), (requirement, version)


def test_the_licence_file_is_the_licence_pyproject_names():
    assert PROJECT["license"] == {"text": "MIT"}
    assert (ROOT / "LICENSE").read_text().startswith("MIT License\n")


def test_the_console_script_runs_the_bot(tmp_path: Path):
    """pip writes ``cardbot`` from ``[project.scripts]``, and it does what ``python -m bot``
    does (here: migrate a new database). The project is installed into a new virtual
    environment without its dependencies and without a build environment of its own (no
    download): that environment sees this one's packages through a ``.pth`` file — the
    build backend and ``wheel`` of the test extra, the bot's dependencies. (Its
    ``--system-site-packages`` would be the base interpreter's, which, when the suite runs
    in a virtual environment, has neither: "invalid command 'bdist_wheel'".)"""
    venv = tmp_path / "venv"
    made = subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(venv)], capture_output=True, text=True
    )
    if made.returncode != 0:
        pytest.skip(f"this Python cannot make a virtual environment: {made.stderr.strip()}")
    for needed in ("setuptools", "wheel"):
        if importlib.util.find_spec(needed) is None:
            pytest.skip(f"{needed} is not installed here: pip install -e '.[test]' brings it")
    python = venv / "bin" / "python"
    where = "import sysconfig; print(sysconfig.get_path('purelib'))"
    inner = subprocess.run(
        [str(python), "-c", where], capture_output=True, text=True, check=True
    ).stdout.strip()
    outer = [path for path in sys.path if path.endswith(("site-packages", "dist-packages"))]
    (Path(inner) / "suite-packages.pth").write_text("\n".join(outer) + "\n")
    env = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    install = [sys.executable, "-m", "pip", "--python", str(python)]
    done = subprocess.run(
        [*install, "install", "-q", "--no-deps", "--no-build-isolation", "--no-index", "-e", "."],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    database = tmp_path / "bot.sqlite3"
    done = subprocess.run(
        [str(venv / "bin" / "cardbot"), "migrate", "--db", str(database)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"{database}: schema version ")
