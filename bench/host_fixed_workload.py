"""A fixed host workload for drift-free comparisons: N tables of 4 AI seats on a fake clock,
a fixed number of timer passes, storage on a SQLite file, groups paced as an adapter paces.

Run: ``python bench/host_fixed_workload.py [--game erqiwang] [--tables 200] [--passes 60]
[--level normal] [--default-collector]``

Once the tables are open the garbage collector is settled as the bot settles it after
restoring its tables (`bot.hosting.collector`); ``--default-collector`` leaves CPython's defaults.

It prints the actions taken and their rate. The rate drifts with the host like every timing
here; the instructions do not. Count them with valgrind, once with the passes and once with
a single pass (the set-up), and divide the difference by the difference in actions:

    valgrind --tool=callgrind python bench/host_fixed_workload.py --passes 60
    valgrind --tool=callgrind python bench/host_fixed_workload.py --passes 1

(``python`` must be the interpreter itself, not a shell shim, for valgrind to follow it.)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from adapters.pacing import GroupPacer
from bot.hosting.collector import settle_after_start
from bot.hosting.manager import TableManager
from bot.reading.command import parse_command
from bot.views.outgoing import Outgoing
from storage import Database

SETUP = ("/new {game}", "/settings ai_delay 0", "/settings ai_level {level}", "/addbot",
         "/addbot", "/addbot", "/leave", "/addbot", "/start")  # fmt: skip


class StepClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def run(
    game: str, tables: int, passes: int, level: str, default_collector: bool = False
) -> tuple[int, float]:
    folder = tempfile.mkdtemp()
    db = await Database.open(os.path.join(folder, "fixed.sqlite3"))
    clock = StepClock()
    pacers: dict[str, GroupPacer] = {}

    async def sink(message: Outgoing) -> None:
        if message.kind in ("group", "table"):
            pacer = pacers.get(message.chat)
            if pacer is None:  # one per group, as an adapter keeps
                pacer = pacers[message.chat] = GroupPacer(clock)
            pacer.submit(message)
            for due in pacer.due():
                due.resolved()
        else:
            message.resolved()

    manager = TableManager(db, sink, clock=clock, seeds=lambda number: number * 7919)
    for index in range(tables):
        for line in SETUP:
            text = line.format(game=game, level=level)
            command = parse_command(text, f"h{index}", "Host", f"c{index}")
            assert command is not None
            await manager.handle(command)
    if not default_collector:
        settle_after_start()  # as the bot does once it has restored its tables
    actions = 0
    store = manager._store_batch

    async def counting(steps):  # type: ignore[no-untyped-def]
        nonlocal actions
        actions += sum(len(effects.actions) for _, effects in steps)
        await store(steps)

    manager._store_batch = counting  # type: ignore[method-assign]
    started = time.perf_counter()
    for _ in range(passes):
        clock.now += 0.5
        await manager.tick()
    elapsed = time.perf_counter() - started
    await db.close()
    return actions, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="erqiwang", choices=("situan", "erqiwang"))
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--passes", type=int, default=60)
    parser.add_argument(
        "--level",
        default="normal",
        choices=("easy", "normal", "hard"),
        help="the AI seats' level (easy: the AI of before the shared protocol)",
    )
    parser.add_argument(
        "--default-collector",
        action="store_true",
        help="leave the garbage collector at CPython's defaults",
    )
    args = parser.parse_args()
    actions, elapsed = asyncio.run(
        run(args.game, args.tables, args.passes, args.level, args.default_collector)
    )
    print(f"{args.game}: {actions} actions in {elapsed:.2f} s ({actions / elapsed:,.0f}/s)")


if __name__ == "__main__":
    main()
