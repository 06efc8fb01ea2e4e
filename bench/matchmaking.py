"""Quick matching under load (issue 54): N simulated people join and leave the quick queues
while matching steps seat them, on SQLite (one process) or PostgreSQL (``--processes P``:
P matching processes on one database).

Run: ``python bench/matchmaking.py --people 2000 --seconds 120 [--quick-wait 90]
[--processes 2 --postgres ADDRESS]`` (without ``--postgres``, ``--processes 2`` starts a
PostgreSQL server of its own with tests/pg_server.py).

- People come from both platforms (ids ``tg:…``/``dc:…``), half for 四团 and half for 二七王,
  with μ drawn from a normal distribution (25, 4) — a population around the newcomers'
  start; four in five accept AI seats. Each joins at a random moment of the first 10 s.
- A matched table's hand is played: the engine deals it, every seat decides as a ``normal``
  AI player does, one action each ``--pace`` seconds (0.5: the pace of AI players at
  ``ai_delay`` 0.5, some 50 s a hand). It is then rated as the bot rates it
  (`bot.community.skill_ratings.rate` over the game's `rated_results`, AI seats at their
  level's fixed rating), the people's μ moving for their next match; then they rejoin after
  0 to 10 s. The tables' messages are not sent: this measures the queue, the matching and the
  storage with hands of real length and outcome, not the platforms.
- Each matching process runs the matching step (`bot.community.quick_seating.seat_waiting`) of every
  queue once a second. With several, they are a cluster's: the first runs Telegram and
  Discord's shard 0 and matches everyone; the others run Telegram and other Discord shards,
  and match only the Telegram people (`bot.hosting.quick_reach`).

The last line is JSON: people, tables, wait_p50_s and wait_p99_s (join to seat, of those
seated), seated_twice (a person seated at a table while not waiting: twice for one join),
tables_opened_twice (a table of people none of whom was waiting: one opened again),
rating_gap_p50 (μ between a table's highest and lowest person) and ai_seats_share (AI seats
over all seats), with still_waiting (in a queue at the end).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.community.quick_seating import seat_waiting
from bot.community.skill_ratings import MODEL, Rating, rate
from bot.games import FRONTS, GAME_NAMES, RECORD_READERS
from bot.hosting.quick_reach import Reach
from engine import game_of
from engine.ai import player
from storage import Database, open_database
from storage.quick_queue import QueueEntry

STEP = 1.0
"""Seconds between a process's matching steps."""


def reach_of(process: int) -> frozenset[str] | None:
    """Whom the ``process``-th matching process reaches: the first everyone, the others only
    Telegram's people (no Discord shard 0)."""
    return None if process == 0 else Reach.of_process(True, True, (process,)).platforms


def queues() -> list[tuple[str, str]]:
    return [(game, FRONTS[game].game.default_preset) for game in GAME_NAMES]


async def matching(
    address: str, seconds: float, quick_wait: float, name: str, platforms: frozenset[str] | None
) -> None:
    db = await open_database(address)
    ends = time.time() + seconds
    count = 0

    def new_chat() -> str:
        nonlocal count
        count += 1
        return f"quick:{name}:{count}"

    try:
        while time.time() < ends:
            for game, preset in queues():
                await seat_waiting(db, game, preset, time.time(), quick_wait, new_chat, platforms)
            await asyncio.sleep(STEP)
    finally:
        await db.close()


def matching_process(
    address: str, seconds: float, quick_wait: float, name: str, platforms: frozenset[str] | None
) -> None:
    asyncio.run(matching(address, seconds, quick_wait, name, platforms))


async def played(game: str, users: list[str], ratings: dict[str, Rating], pace: float,
                 seed: int) -> None:  # fmt: skip
    """Play a matched table's hand with ``normal`` AI decisions at ``pace``, then rate it:
    the people (the first seats) move in ``ratings``, the AI seats keep their level's."""
    engine = game_of(game)
    hand = engine.deal(engine.rules(), seed=seed)
    normal = [player(game, "normal", seed=seed + seat) for seat in range(4)]
    while not hand.over:
        await asyncio.sleep(pace)
        seat = hand.to_act
        hand.apply(normal[seat].decide(hand.view(seat), hand.legal_actions(seat)))
    result = hand.result
    reader = RECORD_READERS[game]
    results = reader.rated_results(result.to_json()) if result is not None else None
    if results is None:
        return  # a redeal, or a series hand that decided nothing
    fixed = Rating(*reader.ai_ratings["normal"])
    before = [ratings[user] for user in users] + [fixed] * (4 - len(users))
    for user, after in zip(users, rate(results, before), strict=False):
        ratings[user] = after


async def people(db: Database, count: int, seconds: float, pace: float) -> dict[str, Any]:
    """Join, watch for seats, play (simulated), rejoin; returns what the figures need."""
    draw = random.Random(54)
    games = queues()
    person = {
        f"{'tg' if n % 2 else 'dc'}:{n}": (games[n % 2], draw.gauss(25, 4), draw.random() < 0.8)
        for n in range(count)
    }
    rejoin_at = {user: time.time() + draw.uniform(0, 10) for user in person}
    joined: dict[str, float] = {}
    waits: list[float] = []
    seated_twice = 0
    seen_chats: dict[str, float] = {}
    ratings = {user: Rating(mu, MODEL.sigma) for user, (_, mu, _) in person.items()}
    hands: set[asyncio.Task[None]] = set()

    async def hand_then_rejoin(game: str, users: list[str], seed: int) -> None:
        await played(game, users, ratings, pace, seed)
        for user in users:
            rejoin_at[user] = time.time() + draw.uniform(0, 10)

    gaps: list[float] = []
    ai_seats = seats = 0
    ends = time.time() + seconds
    tables_twice = 0
    while time.time() < ends:
        now = time.time()
        due = [user for user, at in rejoin_at.items() if at <= now]
        if due:
            async with db.transaction() as tx:
                for user in due:
                    (game, preset), _, accepts_ai = person[user]
                    mu = ratings[user].mu
                    await tx.join_queue(QueueEntry(user, game, preset, mu, now, accepts_ai))
                    joined[user] = now
                    del rejoin_at[user]
        for chat, users in await db.quick_tables():
            if chat in seen_chats:
                continue  # read before (every table is read each time: one opened a moment
                # ago may commit after a later one, so reading "since" would miss it)
            seen_chats[chat] = now
            pending = [user for user in users if user in joined]
            if not pending:
                tables_twice += 1  # nobody of it was waiting: a table opened again
                continue
            seated_twice += len(users) - len(pending)  # seated with no join of theirs pending
            for user in pending:
                waits.append(now - joined.pop(user))
            table_mus = [ratings[user].mu for user in users]
            game = person[users[0]][0][0]
            task = asyncio.create_task(hand_then_rejoin(game, list(users), len(seen_chats)))
            task.add_done_callback(hands.discard)
            hands.add(task)
            gaps.append(max(table_mus) - min(table_mus))
            ai_seats += 4 - len(users)
            seats += 4
        await asyncio.sleep(0.2)
    for task in hands:
        task.cancel()
    waits.sort()
    return {
        "tables": len(seen_chats),
        "wait_p50_s": round(statistics.median(waits), 1) if waits else None,
        "wait_p99_s": round(waits[min(len(waits) - 1, int(0.99 * len(waits)))], 1)
        if waits else None,
        "seated_twice": seated_twice,
        "tables_opened_twice": tables_twice,
        "rating_gap_p50": round(statistics.median(gaps), 2) if gaps else None,
        "ai_seats_share": round(ai_seats / seats, 3) if seats else None,
        "still_waiting": len(joined),
    }  # fmt: skip


async def run(args: argparse.Namespace, address: str) -> dict[str, Any]:
    db = await open_database(address)
    try:
        if args.processes == 1:
            matcher = asyncio.create_task(
                matching(address, args.seconds, args.quick_wait, "a", None)
            )
            found = await people(db, args.people, args.seconds, args.pace)
            await matcher
        else:
            spawn = multiprocessing.get_context("spawn")
            workers = [
                spawn.Process(
                    target=matching_process,
                    args=(address, args.seconds, args.quick_wait, str(n), reach_of(n)),
                )
                for n in range(args.processes)
            ]
            for worker in workers:
                worker.start()
            found = await people(db, args.people, args.seconds, args.pace)
            for worker in workers:
                worker.join()
    finally:
        await db.close()
    return {"people": args.people, **found}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--people", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--quick-wait", type=float, default=90.0)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--pace", type=float, default=0.5, help="seconds between a hand's actions")
    parser.add_argument("--postgres", default="", help="a PostgreSQL address to use")
    parser.add_argument("--sqlite", default="", help="the SQLite file (default: a new one)")
    args = parser.parse_args(argv)
    server = None
    if args.processes > 1 and not args.postgres:
        from tests.pg_server import FAST_FOR_TESTS, PostgresServer

        server = PostgresServer(FAST_FOR_TESTS)
        server.start()
        args.postgres = server.database()
    address = args.postgres or args.sqlite or f"/tmp/matchmaking-{uuid.uuid4().hex}.sqlite3"
    try:
        found = asyncio.run(run(args, address))
    finally:
        if server is not None:
            server.stop()
    print(json.dumps(found, ensure_ascii=False))


if __name__ == "__main__":
    main()
