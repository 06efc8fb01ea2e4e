"""Closed tables are forgotten: N chats each open a table and stop it; what the host keeps in
memory and what the store keeps, then after the retention period and a heartbeat.

Run: ``python bench/forget_tables.py [--chats 5000] [--retention-days 30]``

Prints, after the N chats and again after the retention period has passed on the host's
(fake) clock and a timer pass ran its heartbeat: the tables and chat locks the host keeps, the
memory it holds beyond what it held before the first chat (tracemalloc, after a collection),
the rows of each stored table, and the size of the SQLite file with its write-ahead log (the
file does not shrink without VACUUM: the rows are what the retention removes).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sqlite3
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.hosting.manager import TableManager
from bot.reading.command import parse_command
from bot.views.outgoing import Outgoing
from storage import Database
from tests.bot.harness import FakeClock

DAY = 86_400.0


async def nothing_sent(message: Outgoing) -> None:
    """What the tables say goes nowhere: only what the host keeps is measured."""


def rows(path: Path) -> dict[str, int]:
    with sqlite3.connect(path) as db:
        listed = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        names = [name for (name,) in listed if name != "schema_version"]
        return {name: db.execute(f"SELECT count(*) FROM {name}").fetchone()[0] for name in names}


def file_size(path: Path) -> int:
    return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists())


def report(when: str, manager: TableManager, base: int, path: Path) -> None:
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - base
    print(f"{when}:")
    print(
        f"  in memory: {len(manager.tables)} tables, {len(manager.open.locks())} locks, "
        f"{held / 1e6:.2f} MB held beyond the start"
    )
    counted = ", ".join(f"{name} {count}" for name, count in rows(path).items())
    print(f"  stored: {counted}; file {file_size(path) / 1e6:.2f} MB")


async def run(args: argparse.Namespace, path: Path) -> None:
    clock = FakeClock()
    db = await Database.open(str(path))
    try:
        settings: dict[str, Any] = {"retention": args.retention_days * DAY}
        try:
            manager = TableManager(db, nothing_sent, clock=clock, **settings)
        except TypeError:  # a host from before the retention setting
            manager = TableManager(db, nothing_sent, clock=clock)
        await manager.tick()  # the first heartbeat, as at start
        print(f"before: stored {file_size(path) / 1e6:.2f} MB")
        gc.collect()
        tracemalloc.start()
        base = tracemalloc.get_traced_memory()[0]
        began = time.perf_counter()
        for number in range(args.chats):
            chat, user = f"chat-{number}", f"user-{number}"
            for text in ("/new situan", "/stop"):
                command = parse_command(text, user, "Player", chat)
                assert command is not None
                await manager.handle(command)
            clock.advance(1.0)
        elapsed = time.perf_counter() - began
        print(f"{args.chats} chats opened and stopped a table in {elapsed:.1f} s")
        report("after the chats", manager, base, path)
        clock.advance(args.retention_days * DAY + 3600.0)
        await manager.tick()  # a timer pass: its heartbeat
        report(f"after {args.retention_days} days and a heartbeat", manager, base, path)
        tracemalloc.stop()
    finally:
        await db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chats", type=int, default=5000)
    parser.add_argument("--retention-days", type=float, default=30.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(args, Path(folder) / "forget.sqlite3"))


if __name__ == "__main__":
    main()
