"""The quick queues on SQLite and PostgreSQL (issue 54): one queue a person, seating takes
them out and records the table once; on PostgreSQL two processes matching one queue at once
seat 200 people who joined at once each exactly once."""

from __future__ import annotations

import asyncio
import itertools

from bot.community.quick_seating import seat_waiting
from storage import Database, LedgerLine, open_database
from storage.quick_queue import QueueEntry
from tests.pg_server import PostgresServer


def waiting(user: str, since: float = 0.0, mu: float = 25.0) -> QueueEntry:
    return QueueEntry(user, "situan", "classic", mu, since)


async def test_a_person_waits_in_one_queue_and_leaves_it(db: Database):
    async with db.transaction() as tx:
        assert await tx.join_queue(waiting("tg:1"))
        assert not await tx.join_queue(QueueEntry("tg:1", "erqiwang", "classic", 25.0, 1.0))
    assert await db.queue_entry("tg:1") == waiting("tg:1")
    async with db.transaction() as tx:
        assert await tx.leave_queue("tg:1")
        assert not await tx.leave_queue("tg:1")
    assert await db.queue_entry("tg:1") is None


async def test_seating_takes_the_four_out_and_records_the_table(db: Database):
    async with db.transaction() as tx:
        for number in range(6):
            await tx.join_queue(waiting(f"u{number}", since=float(number), mu=25.0 + number))
    chats = iter(["quick:1", "quick:2"])
    opened = await seat_waiting(db, "situan", "classic", 10.0, 90.0, lambda: next(chats))
    assert [(chat, [p.user for p in people], ai) for chat, people, ai in opened] == [
        ("quick:1", ["u0", "u1", "u2", "u3"], 0)
    ]
    assert await db.quick_tables() == [("quick:1", ("u0", "u1", "u2", "u3"))]
    assert await db.queue_entry("u0") is None and await db.queue_entry("u4") is not None
    later = await seat_waiting(db, "situan", "classic", 200.0, 90.0, lambda: next(chats))
    assert [(chat, len(people), ai) for chat, people, ai in later] == [("quick:2", 2, 2)]


async def test_two_processes_seat_two_hundred_people_once_each(postgres_server: PostgresServer):
    """Two databases (two processes' pools) on one PostgreSQL: 200 people join at once, half
    through each, while both match the queue over and over until it is empty."""
    address = postgres_server.database()
    first = await open_database(address)
    second = await open_database(address)
    numbers = itertools.count()
    try:

        async def join(db: Database, user: str) -> None:
            async with db.transaction() as tx:
                assert await tx.join_queue(waiting(user, since=0.0, mu=25.0))

        async def matcher(db: Database, name: str) -> None:
            # Until everyone is seated (awaited, not timed; bounded so a bug fails, not hangs).
            for _ in range(10_000):
                if sum(len(users) for _, users in await db.quick_tables()) >= 200:
                    return
                await seat_waiting(
                    db, "situan", "classic", 1.0, 90.0, lambda: f"quick:{name}:{next(numbers)}"
                )
                await asyncio.sleep(0)

        joins = [join(first if n % 2 else second, f"p{n}") for n in range(200)]
        await asyncio.gather(*joins, matcher(first, "a"), matcher(second, "b"))
        tables = await first.quick_tables()
        seated = [user for _, users in tables for user in users]
        assert sorted(seated) == sorted(f"p{n}" for n in range(200))  # each once, none left
        assert len({chat for chat, _ in tables}) == len(tables) == 50
        assert all(len(users) == 4 for _, users in tables)
    finally:
        await first.close()
        await second.close()


async def test_blocks_leaves_names_and_reports_read_back(db: Database):
    async with db.transaction() as tx:
        assert await tx.block("a", "b", 1.0)
        assert not await tx.block("a", "b", 2.0)
        await tx.block("c", "d", 1.0)
        await tx.note_leave("a", 10.0)
        await tx.note_leave("a", 5.0)
        await tx.set_player("a", "Ann")
        hand = await tx.start_hand("g", "m", 1, {"deal": 1})
        await tx.finish_hand(hand, "g", {"winner": "A"}, [LedgerLine("a", "Ann", "1", False, "0")])
        await tx.report("a", "g", hand, "why", 20.0)
    assert await db.blocks_among(["b"]) == {("a", "b")}
    assert await db.blocks_among(["a", "d"]) == {("a", "b"), ("c", "d")}
    assert await db.blocks_among(["z"]) == set()
    assert await db.leaves_since("a", 0.0) == [5.0, 10.0]
    assert await db.leaves_since("a", 6.0) == [10.0]
    assert await db.names_of(["a", "z"]) == {"a": "Ann"}
    assert await db.last_hand_of("a") == ("g", hand) and await db.last_hand_of("z") is None
    assert await db.reports() == [("a", "g", hand, "why", 20.0)]


async def test_a_claim_takes_only_the_platforms_asked_for(db: Database):
    """A process matches only the people it reaches (`bot.hosting.quick_reach`): the
    others are not its to claim."""
    async with db.transaction() as tx:
        for user in ("tg:1", "dc:2", "you", "tg:3"):
            assert await tx.join_queue(waiting(user))
    assert await db.waiting_in("situan", "classic") == 4
    assert await db.waiting_in("erqiwang", "classic") == 0
    async with db.transaction() as tx:
        everyone = await tx.claim_waiting("situan", "classic")
        telegram = await tx.claim_waiting("situan", "classic", frozenset({"tg"}))
        console = await tx.claim_waiting("situan", "classic", frozenset({""}))
        nobody = await tx.claim_waiting("situan", "classic", frozenset())
    assert [e.user for e in everyone] == ["dc:2", "tg:1", "tg:3", "you"]
    assert [e.user for e in telegram] == ["tg:1", "tg:3"]
    assert [e.user for e in console] == ["you"] and nobody == []


async def test_rows_of_other_platforms_are_left_unlocked(postgres_server: PostgresServer):
    """On PostgreSQL the rows a process may not claim are not locked by its claim: another
    process claims them meanwhile."""
    address = postgres_server.database()
    first = await open_database(address)
    second = await open_database(address)
    try:
        async with first.transaction() as tx:
            for user in ("tg:1", "dc:2"):
                assert await tx.join_queue(waiting(user))
        async with first.transaction() as holding:
            mine = await holding.claim_waiting("situan", "classic", frozenset({"tg"}))
            async with second.transaction() as other:
                theirs = await other.claim_waiting("situan", "classic")
        assert [e.user for e in mine] == ["tg:1"] and [e.user for e in theirs] == ["dc:2"]
    finally:
        await first.close()
        await second.close()
