"""Host throughput: many tables of 4 AI seats driven as fast as possible through the
TableManager, with every accepted action stored in SQLite on a file before it is "sent".

Run: ``python bench/host_throughput.py [--tables 1000] [--seconds 20] [--rounds 4] [--game situan]
[--level easy|normal|hard] [--ai-workers N] [--ai-delay S] [--lag]
[--db sqlite|postgresql|postgresql://…|compare] [--processes N]``

``--db postgresql`` starts a PostgreSQL server of its own (its default, durable settings) on a
temporary directory; a ``postgresql://`` address uses that database. On PostgreSQL the tables
are leased as when several bot processes share it (`bot.hosting.table_leases`), and ``--processes
2`` runs two host processes on the one database, the tables split between them (figures summed).

Prints accepted actions/s, the latency of each action (from the table acting to its commit,
p50/p99) and resident memory per table. Targets (issue 4): ≥ 3,000 actions/s, p99 ≤ 20 ms,
≤ 64 KB per table. Messages go to a sink that paces each group as an adapter does (the real
`GroupPacer`) and writes every message it would send; it sends nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import heapq
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from adapters.pacing import GroupPacer
from bot.hosting.collector import settle_after_start
from bot.hosting.manager import TableManager
from bot.hosting.table_leases import Ownership
from bot.pictures import PictureError
from bot.reading.command import parse_command
from bot.views.outgoing import Kind, Outgoing
from storage import Database


class CollectorClock:
    """Time spent in garbage collection (a `gc.callbacks` entry)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.runs = 0
        self._began = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self.seconds += time.perf_counter() - self._began
            self.runs += 1


def rss_kib() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


async def main_async(args: argparse.Namespace) -> None:
    folder = tempfile.mkdtemp()
    shared = args.db.startswith("postgres")
    db = await Database.open(args.db if shared else os.path.join(folder, "bench.sqlite3"))
    worker = max(args.worker, 0)
    sent = 0
    drawing: dict[str, list[float]] = {"hand": [], "settlement": []}
    renders: set[asyncio.Task[None]] = set()

    def draw_off_loop(message: Outgoing) -> None:
        """As an adapter does: the picture drawn in a worker thread, timed there."""
        if not args.pictures or message.picture is None:
            return
        picture = message.picture
        kind = "hand" if message.kind == Kind.PRIVATE else "settlement"

        def timed() -> None:
            started = time.perf_counter()
            try:
                picture()
            except PictureError:
                return
            drawing[kind].append(time.perf_counter() - started)

        task = asyncio.ensure_future(asyncio.to_thread(timed))
        renders.add(task)
        task.add_done_callback(renders.discard)

    pacers: dict[str, GroupPacer] = {}
    waiting: list[tuple[float, str]] = []

    def release(chat: str) -> None:
        nonlocal sent
        pacer = pacers[chat]
        for message in pacer.due():
            message.resolved()  # written as an adapter writes it before sending
            draw_off_loop(message)
            sent += 1
        when = pacer.next_time()
        if when is not None:
            heapq.heappush(waiting, (when, chat))

    async def sink(message: Outgoing) -> None:
        nonlocal sent
        if message.kind in ("group", "table"):
            pacer = pacers.get(message.chat)
            if pacer is None:  # one per group, as an adapter keeps
                pacer = pacers[message.chat] = GroupPacer(time.monotonic)
            pacer.submit(message)
            release(message.chat)
        else:
            message.resolved()
            draw_off_loop(message)
            sent += 1

    def release_due() -> None:
        now = time.monotonic()
        while waiting and waiting[0][0] <= now:
            _, chat = heapq.heappop(waiting)
            release(chat)

    ownership = Ownership(f"bench-{worker}") if shared and not args.no_leases else None
    manager = TableManager(
        db,
        sink,
        seeds=lambda number: number * 7919,
        ownership=ownership,
        ai_workers=args.ai_workers,
    )
    gc.collect()
    before = rss_kib()
    for index in range(args.tables):
        chat = f"chat-{worker}-{index}"
        for text in (
            f"/new {args.game}",
            f"/settings ai_delay {args.ai_delay:g}",
            f"/settings ai_level {args.level}",
            "/addbot",
            "/addbot",
            "/addbot",
            "/leave",
            "/addbot",
            "/start",
        ):
            command = parse_command(text, f"host-{index}", "Host", chat)
            assert command is not None
            await manager.handle(command)
        await manager.keep_leases()  # opening a thousand tables outlasts a lease
    gc.collect()
    per_table = (rss_kib() - before) / args.tables
    await manager.thinking.workers.warm()  # as the bot does when its timers start
    if not args.default_collector:
        settle_after_start()  # as the bot does once it has restored its tables
    actions = 0
    latencies: list[float] = []
    store_batch = manager.keeper.store_batch

    async def timed_store(steps):  # each action waits from its batch's start to its commit
        nonlocal actions
        await store_batch(steps)
        waited = time.perf_counter() - batch_started[0]
        count = sum(len(effects.actions) for _, effects in steps)
        actions += count
        latencies.extend([waited] * count)

    manager.keeper.store_batch = timed_store  # type: ignore[method-assign]
    batch_started = [0.0]
    run_batch = manager.timers.tick_batch

    async def timed_batch(chats, *rest):
        batch_started[0] = time.perf_counter()
        await run_batch(chats, *rest)

    manager.timers.tick_batch = timed_batch  # type: ignore[method-assign]
    # Hard decisions are made by the AI workers and applied when they come back: timed from
    # the moment the table asked to the commit.
    asked: dict[str, float] = {}
    by_workers: list[float] = []
    deciding: list[float] = []
    think, decided = manager.thinking.start, manager.thinking.decided

    def timed_think(decision, *rest):
        asked[decision.chat] = time.perf_counter()
        think(decision, *rest)

    async def timed_decided(decision, action):
        nonlocal actions
        back = time.perf_counter()
        table = manager.tables.get(decision.chat)
        before = None if table is None else (table.hand_number, table.turn_count)
        await decided(decision, action)
        if table is not None and (table.hand_number, table.turn_count) != before:
            actions += 1
            latencies.append(time.perf_counter() - asked[decision.chat])
            by_workers.append(latencies[-1])
            deciding.append(back - asked[decision.chat])

    manager.thinking.start, manager.thinking.decided = timed_think, timed_decided
    lags: list[float] = []
    probing = True

    async def probe_the_loop() -> None:
        """How late the event loop wakes a 5 ms sleep: what every other chat would wait."""
        while probing:
            asleep = time.perf_counter()
            await asyncio.sleep(0.005)
            lags.append(time.perf_counter() - asleep - 0.005)

    probe = asyncio.create_task(probe_the_loop()) if args.lag else None
    collecting = CollectorClock()
    gc.callbacks.append(collecting)
    started = time.perf_counter()
    window = args.seconds / args.rounds
    rates: list[float] = []
    for _ in range(args.rounds):  # the host drifts: several windows, like the other benches
        window_started, actions_before = time.perf_counter(), actions
        while time.perf_counter() - window_started < window:
            await manager.tick()
            release_due()
            await asyncio.sleep(0)  # let decisions that came back be applied
        rates.append((actions - actions_before) / (time.perf_counter() - window_started))
    if renders:
        await asyncio.gather(*renders)
    elapsed = time.perf_counter() - started
    gc.callbacks.remove(collecting)
    probing = False
    if probe is not None:
        await probe
    await manager.thinking.close()
    await db.close()
    ms = sorted(x * 1000 for x in latencies)
    if args.worker >= 0:  # one of several processes: its figures to the parent
        print(
            json.dumps(
                {
                    "rates": rates,
                    "ms": ms[:: max(1, len(ms) // 20000)],
                    "actions": actions,
                    "elapsed": elapsed,
                }
            )
        )
        return
    where = (
        ("PostgreSQL, not leased" if args.no_leases else "PostgreSQL, leased")
        if shared
        else "SQLite file"
    )
    print(
        f"{args.tables} tables of {args.game}, 4 {args.level} AI seats each, {where}, "
        f"{elapsed:.1f} s"
    )
    windows = ", ".join(f"{rate:,.0f}" for rate in rates)
    print(
        f"actions/s per {window:.0f} s window: {windows} (best {max(rates):,.0f}, "
        f"median {statistics.median(rates):,.0f})"
    )
    print(
        f"accepted actions: {actions:,} ({actions / elapsed:,.0f}/s); "
        f"messages written (paced per group): {sent:,}"
    )
    print(
        f"latency per action: p50 {statistics.median(ms):.2f} ms, "
        f"p99 {ms[int(len(ms) * 0.99)]:.2f} ms, max {ms[-1]:.1f} ms"
    )
    if args.level == "hard":
        lowered = manager.thinking.workers.lowered
        shown = ", ".join(f"{n:,} at {what}" for what, n in sorted(lowered.items())) or "none"
        print(
            f"hard decisions: {manager.thinking.workers.decisions:,} asked of "
            f"{args.ai_workers} AI worker processes; lowered: {shown}; "
            f"cut short by the deadline: {manager.thinking.workers.cut:,}"
        )
        if by_workers:
            made = sorted(x * 1000 for x in by_workers)
            print(
                f"  of those, {len(made):,} made by the workers: asked to stored p50 "
                f"{statistics.median(made):.1f} ms, p99 {made[int(len(made) * 0.99)]:.1f} ms"
            )
            back = sorted(x * 1000 for x in deciding)
            print(
                f"  asked to back from the worker: p50 {statistics.median(back):.1f} ms, "
                f"p99 {back[int(len(back) * 0.99)]:.1f} ms"
            )
    print(f"resident memory per table: {per_table:.1f} KiB (tables with a hand dealt)")
    collector = "CPython's defaults" if args.default_collector else "settled as the bot does"
    print(
        f"garbage collection: {collecting.seconds / elapsed:.1%} of the time, "
        f"{collecting.runs:,} collections (collector: {collector})"
    )
    if lags:
        lag = sorted(x * 1000 for x in lags)
        print(
            f"event loop lag (a 5 ms sleep woken late by): p50 {statistics.median(lag):.2f} "
            f"ms, p99 {lag[int(len(lag) * 0.99)]:.2f} ms, max {lag[-1]:.1f} ms"
        )
    if args.pictures:
        spent = sum(map(sum, drawing.values()))
        print(
            f"pictures: {spent:.2f} s drawing of {elapsed:.1f} s ({100 * spent / elapsed:.1f}%"
            " of the run, in worker threads)"
        )
        for kind, times in drawing.items():
            if times:
                print(
                    f"  {kind}: {len(times):,} drawn, median "
                    f"{1000 * statistics.median(times):.1f} ms each"
                )


def several_processes(args: argparse.Namespace, argv: list[str]) -> None:
    """``--processes N``: N host processes on one PostgreSQL database, each with its share of
    the tables, their windows run at the same time; actions/s summed, latencies merged."""
    share = args.tables // args.processes
    command = [sys.executable, __file__, *argv, "--tables", str(share), "--db", args.db]
    workers = [
        subprocess.Popen([*command, "--worker", str(n)], stdout=subprocess.PIPE)
        for n in range(args.processes)
    ]
    figures = []
    for process in workers:
        out, _ = process.communicate()
        assert process.returncode == 0, "a worker failed"
        figures.append(json.loads(out.decode().strip().splitlines()[-1]))
    rates = [sum(each) for each in zip(*(f["rates"] for f in figures), strict=True)]
    ms = sorted(x for f in figures for x in f["ms"])
    print(
        f"{share * args.processes} tables of {args.game} in {args.processes} processes "
        f"({share} each), 4 {args.level} AI seats each, PostgreSQL, leased"
    )
    print(
        f"actions/s (all processes) per window: {', '.join(f'{r:,.0f}' for r in rates)} "
        f"(best {max(rates):,.0f}, median {statistics.median(rates):,.0f})"
    )
    print(
        f"latency per action: p50 {statistics.median(ms):.2f} ms, "
        f"p99 {ms[int(len(ms) * 0.99)]:.2f} ms, max {ms[-1]:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rounds", type=int, default=4, help="windows the run is cut into")
    parser.add_argument("--game", default="situan", choices=("situan", "erqiwang"))
    parser.add_argument(
        "--level",
        default="normal",
        choices=("easy", "normal", "hard"),
        help="the AI players' level (hard decides in worker threads)",
    )
    parser.add_argument(
        "--ai-workers",
        type=int,
        default=max(1, (os.cpu_count() or 2) - 1),
        help="processes making hard decisions (0: a thread of this one)",
    )
    parser.add_argument(
        "--ai-delay",
        type=float,
        default=0.0,
        help="the AI players' pause before each move, seconds",
    )
    parser.add_argument(
        "--lag", action="store_true", help="also measure how late the event loop wakes up"
    )
    parser.add_argument(
        "--pictures",
        action="store_true",
        help="draw the pictures the sink sends, off the loop, timed",
    )
    parser.add_argument(
        "--db",
        default="sqlite",
        help="sqlite (a temporary file), postgresql (a server of its own), "
        "a postgresql:// address, or compare (all three: SQLite, PostgreSQL "
        "with 1 and with 2 processes)",
    )
    parser.add_argument(
        "--processes", type=int, default=1, help="host processes on one PostgreSQL database"
    )
    parser.add_argument(
        "--default-collector",
        action="store_true",
        help="leave the garbage collector at CPython's defaults",
    )
    parser.add_argument(
        "--no-leases", action="store_true", help="PostgreSQL without leases (to see what they cost)"
    )
    parser.add_argument("--worker", type=int, default=-1, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.db == "compare":
        compare_back_ends(sys.argv[1:])
        return
    if args.processes > 1 and not args.db.startswith("postgres"):
        parser.error("several processes share a PostgreSQL database: say --db postgresql")
    server = None
    if args.db == "postgresql":
        from tests.pg_server import PostgresServer

        server = PostgresServer()
        server.start()
        args.db = server.database("bench")
    try:
        if args.processes > 1 and args.worker < 0:
            passed = strip_options(sys.argv[1:], ("--tables", "--db", "--processes"))
            several_processes(args, passed)
        else:
            asyncio.run(main_async(args))
    finally:
        if server is not None:
            server.stop()


def compare_back_ends(argv: list[str]) -> None:
    """``--db compare``: SQLite, then PostgreSQL with one process and with two, one after the
    other in one run (the same tables and windows each), each printing its own figures."""
    passed = strip_options(argv, ("--db", "--processes"))
    for db, processes in (("sqlite", 1), ("postgresql", 1), ("postgresql", 2)):
        print(f"--- --db {db} --processes {processes}", flush=True)
        command = [sys.executable, __file__, *passed, "--db", db, "--processes", str(processes)]
        subprocess.run(command, check=True)


def strip_options(argv: list[str], names: tuple[str, ...]) -> list[str]:
    """``argv`` without the options ``names`` and their values."""
    kept: list[str] = []
    skip = False
    for word in argv:
        if skip:
            skip = False
        elif word in names:
            skip = True
        elif not word.startswith(tuple(f"{name}=" for name in names)):
            kept.append(word)
    return kept


if __name__ == "__main__":
    main()
