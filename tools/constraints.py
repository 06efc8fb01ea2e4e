"""Write ``constraints.txt``: every distribution the bot and its test extra need, pinned to the
version installed here, so that an install elsewhere (the container, a server) gets the set
the tests passed with.

    python tools/constraints.py > constraints.txt

It walks the requirements of ``pyproject.toml`` (the runtime ones and the ``test`` extra)
through the installed distributions' own requirements, markers evaluated for this machine.
"""

from __future__ import annotations

import sys
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
EXTRAS = ("test",)


def wanted() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    listed = list(project["dependencies"])
    for extra in EXTRAS:
        listed += project["optional-dependencies"][extra]
    return [Requirement(text) for text in listed]


def pinned() -> dict[str, str]:
    """Name → installed version of everything ``wanted()`` pulls in."""
    found: dict[str, str] = {}
    todo = [(requirement, "") for requirement in wanted()]
    while todo:
        requirement, extra = todo.pop()
        if requirement.marker and not requirement.marker.evaluate({"extra": extra}):
            continue
        name = canonicalize_name(requirement.name)
        distribution = metadata.distribution(requirement.name)
        seen = name in found
        found[name] = distribution.version
        extras = ["", *sorted(requirement.extras)]
        if seen and not requirement.extras:
            continue
        for text in distribution.requires or ():
            needed = Requirement(text)
            for wanted_extra in extras:
                if needed.marker is None and wanted_extra:
                    continue  # listed for the plain install already
                if needed.marker is None or needed.marker.evaluate({"extra": wanted_extra}):
                    todo.append((needed, wanted_extra))
    return found


def main() -> int:
    print("# Made by tools/constraints.py from the versions the tests passed with; use as")
    print("#   pip install -c constraints.txt .          (or '.[test]')")
    for name, version in sorted(pinned().items()):
        print(f"{name}=={version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
