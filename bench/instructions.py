"""Instructions per unit of work, counted by valgrind: a figure that does not drift with the
machine as timings do, for comparing two trees (this one and, say, a ``git worktree`` of an
older commit) when the timings of a shared machine swing by a third between runs.

Run: ``python bench/instructions.py host [--game erqiwang] [--tables 100] [--passes 25]
[--level easy] [--default-collector] [--tree PATH]`` or
``python bench/instructions.py selfplay [--game situan] [--hands 200] [--tree PATH]``.

Each workload runs twice under ``valgrind --tool=cachegrind --cache-sim=no``: in full, and
with the least work (host: the set-up and one timer pass of `host_fixed_workload`; self-play:
the warm-up alone). The difference in instructions is divided by the difference in actions
(host) or decisions (self-play). ``--tree`` counts another checkout's own benchmark on the
same workload (``--level`` is left out for a tree whose fixed workload has none). Counts
include the C code the Python code runs (SQLite, JSON); not waiting on the disk, and not the
cache misses of a larger heap, which timings do show. Needs valgrind.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

SELFPLAY = """
import importlib.util, sys
sys.path.insert(0, ".")
spec = importlib.util.spec_from_file_location("bench_run", "bench/{game}_selfplay.py")
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
extra = ("classic",) if "{game}" == "erqiwang" else ()
module.run(30, *extra)
decisions, _ = module.run({hands}, *extra) if {hands} else (0, 0.0)
print("decisions", decisions)
"""


VALGRIND = ("valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null")


def counted(command: list[str], tree: Path) -> tuple[int, str]:
    """The instructions ``command`` executes under valgrind, and what it printed."""
    done = subprocess.run(
        [*VALGRIND, *command], cwd=tree, capture_output=True, text=True, check=True
    )
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise SystemExit(f"valgrind gave no count:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", "")), done.stdout


def host_command(args: argparse.Namespace, tree: Path, passes: int) -> list[str]:
    script = "bench/host_fixed_workload.py"
    command = [sys.executable, script, "--game", args.game]
    command += ["--tables", str(args.tables), "--passes", str(passes)]
    usage = subprocess.run(
        [sys.executable, script, "--help"], cwd=tree, capture_output=True, text=True, check=True
    ).stdout
    if "--level" in usage:
        command += ["--level", args.level]
    if args.default_collector and "--default-collector" in usage:
        command.append("--default-collector")
    return command


def per_unit(args: argparse.Namespace, tree: Path) -> tuple[int, float]:
    """(units of work, instructions per unit) for one tree."""
    if args.workload == "host":
        full, full_out = counted(host_command(args, tree, args.passes), tree)
        least, least_out = counted(host_command(args, tree, 1), tree)
        pattern = r"(\d+) actions"
    else:

        def selfplay(hands: int) -> list[str]:
            return [sys.executable, "-c", SELFPLAY.format(game=args.game, hands=hands)]

        full, full_out = counted(selfplay(args.hands), tree)
        least, least_out = counted(selfplay(0), tree)
        pattern = r"decisions (\d+)"
    units = int(re.findall(pattern, full_out)[-1]) - int(re.findall(pattern, least_out)[-1])
    return units, (full - least) / units


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workload", choices=("host", "selfplay"))
    parser.add_argument("--game", default="erqiwang", choices=("situan", "erqiwang"))
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--passes", type=int, default=25)
    parser.add_argument("--level", default="easy", choices=("easy", "normal", "hard"))
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument(
        "--default-collector",
        action="store_true",
        help="host: leave the collector at CPython's defaults",
    )
    parser.add_argument("--tree", type=Path, help="another checkout, counted the same way")
    args = parser.parse_args()
    unit = "action" if args.workload == "host" else "decision"
    units, here = per_unit(args, HERE)
    print(f"{args.workload} {args.game}: {units:,} {unit}s, {here:,.0f} instructions/{unit}")
    if args.tree is not None:
        other_units, there = per_unit(args, args.tree.resolve())
        print(f"{args.tree}: {other_units:,} {unit}s, {there:,.0f} instructions/{unit}")
        print(f"speed here relative to {args.tree}: {there / here:.3f}")


if __name__ == "__main__":
    main()
