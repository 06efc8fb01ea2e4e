"""Storage throughput: N actions appended in batches, one transaction per batch (as the host
stores several tables' steps at once), through each back end side by side.

Run: ``python bench/storage_throughput.py [--actions 20000] [--batch 20] [--tables 100]
[--postgres postgresql://…]``

Prints actions/s and the commit latency of a batch (entering the transaction to its commit,
p50/p99) for SQLite (a file, WAL, synchronous=NORMAL: the bot's settings) and PostgreSQL (a
throwaway local server with its default, durable settings — each commit waits for its WAL
flush — unless ``--postgres`` names another). Each batch also moves its tables' timers on.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from storage import ActionRow, Database, TableRow, TimerRow, open_database
from tests.pg_server import running_server


async def measure(db: Database, args: argparse.Namespace) -> tuple[float, float, float]:
    """(actions/s, p50 ms, p99 ms) of appending ``args.actions`` actions in batches."""
    chats = [f"bench:{i}" for i in range(args.tables)]
    async with db.transaction() as tx:
        await tx.save_tables([TableRow(chat, "situan", "playing", {"seed": 1}) for chat in chats])
        hands = [await tx.start_hand(chat, "m", 1, {"deal": list(range(108))}) for chat in chats]
    next_seq = [0] * args.tables
    latencies: list[float] = []
    written = 0
    began = time.perf_counter()
    while written < args.actions:
        size = min(args.batch, args.actions - written)
        rows, timers = [], []
        for offset in range(size):
            table = (written + offset) % args.tables
            action = {"seat": table % 4, "play": "S7 H7"}
            rows.append(ActionRow(hands[table], next_seq[table], action))
            timers.append(TimerRow(chats[table], time.time() + 30, next_seq[table], time.time()))
            next_seq[table] += 1
        start = time.perf_counter()
        async with db.transaction() as tx:
            await tx.append_actions(rows)
            await tx.save_timers(timers)
        latencies.append(time.perf_counter() - start)
        written += size
    elapsed = time.perf_counter() - began
    cuts = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else latencies * 99
    return written / elapsed, cuts[49] * 1000, cuts[98] * 1000


async def main_async(args: argparse.Namespace, postgres_address: str) -> None:
    folder = tempfile.mkdtemp()
    results = {}
    for name, address in [
        ("SQLite", os.path.join(folder, "bench.sqlite3")),
        ("PostgreSQL", postgres_address),
    ]:
        db = await open_database(address)
        try:
            results[name] = await measure(db, args)
        finally:
            await db.close()
    print(f"{args.actions} actions, {args.batch} a transaction, {args.tables} tables")
    print(f"{'back end':<12}{'actions/s':>12}{'p50 commit':>14}{'p99 commit':>14}")
    for name, (rate, p50, p99) in results.items():
        print(f"{name:<12}{rate:>12,.0f}{p50:>11.2f} ms{p99:>11.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=20_000)
    parser.add_argument("--batch", type=int, default=20)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--postgres", help="an existing database to use (its tables are written)")
    args = parser.parse_args()
    with ExitStack() as stack:
        address = args.postgres
        if address is None:
            address = stack.enter_context(running_server()).database("bench")
        asyncio.run(main_async(args, address))


if __name__ == "__main__":
    main()
