"""Issue 38, item 4: an update's id is taken in the transaction of the step it causes, on both
back ends — two copies handled at once step once; a copy after a restart, or at the process
that took the table over, is dropped; and a crash before the step is stored leaves the update
to be handled when it comes again (taking it first, in a transaction of its own, lost it)."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from bot.hosting.manager import TableManager
from bot.hosting.table_leases import Ownership
from bot.reading.command import Command, Delivery, parse_command
from storage import Database
from tests.bot.harness import CHAT, FakeClock, Harness

TELEGRAM = "telegram:1"


def addbot(update: int) -> Command:
    command = parse_command("/addbot", "ann", "Ann", CHAT, lang="en")
    assert command is not None
    return replace(command, delivery=Delivery(TELEGRAM, str(update)))


def ai_seats(manager: TableManager) -> int:
    return sum(seat is not None and seat.ai for seat in manager.tables[CHAT].seats)


async def opened(address: str, clock: FakeClock, owner: str | None = None) -> Harness:
    ownership = None if owner is None else Ownership(owner, "", 15)
    return Harness(await Database.open(address), clock, 1, ownership)


async def test_two_copies_handled_at_once_seat_one_ai(db: Database) -> None:
    h = Harness(db, FakeClock())
    await h.say("ann", "/new erqiwang", lang="en")
    first, copy = await asyncio.gather(
        h.manager.handle_delivered(addbot(7)), h.manager.handle_delivered(addbot(7))
    )
    assert ai_seats(h.manager) == 1
    assert [first is None, copy is None].count(True) == 1  # exactly one told apart as a copy
    assert h.manager.duplicates == 1
    assert await db.delivered(TELEGRAM, f"7@{CHAT}", h.clock())
    await h.deliver(addbot(8))  # another update is taken as usual
    assert ai_seats(h.manager) == 2


async def test_a_crash_before_the_step_is_stored_leaves_the_update_to_come_again(
    db: Database, address: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = FakeClock()
    h = Harness(db, clock)
    await h.say("ann", "/new erqiwang", lang="en")
    keeper = h.manager.keeper
    store = keeper.store

    async def killed_after_writing(tx, table, effects):  # type: ignore[no-untyped-def]
        await store(tx, table, effects)
        raise RuntimeError("killed in the middle of the step's transaction")

    monkeypatch.setattr(keeper, "store", killed_after_writing)
    await h.deliver(addbot(7))
    monkeypatch.undo()
    # Neither the step nor the update's being taken was committed.
    assert not await db.delivered(TELEGRAM, f"7@{CHAT}", clock())
    await db.close()

    restarted = await opened(address, clock)
    try:
        await restarted.manager.restore()
        assert ai_seats(restarted.manager) == 0
        await restarted.deliver(addbot(7))  # the batch it never confirmed, fetched again
        assert ai_seats(restarted.manager) == 1
        assert restarted.manager.duplicates == 0
        await restarted.deliver(addbot(7))  # and once stored, a copy is dropped
        assert ai_seats(restarted.manager) == 1
        assert restarted.manager.duplicates == 1
    finally:
        await restarted.db.close()


async def test_a_copy_after_a_restart_is_dropped(db: Database, address: str) -> None:
    clock = FakeClock()
    h = Harness(db, clock)
    await h.say("ann", "/new erqiwang", lang="en")
    await h.deliver(addbot(7))
    await db.close()
    restarted = await opened(address, clock)
    try:
        await restarted.manager.restore()
        assert await restarted.manager.handle_delivered(addbot(7)) is None
        assert ai_seats(restarted.manager) == 1
        clock.advance(3600.0 + 1)  # an hour on, an id may be the platform's again
        await restarted.deliver(addbot(7))
        assert ai_seats(restarted.manager) == 2
    finally:
        await restarted.db.close()


async def test_an_update_that_steps_no_table_is_taken_too(db: Database) -> None:
    h = Harness(db, FakeClock())
    command = parse_command("/help", "ann", "Ann", "ann-private", True, "en")
    assert command is not None
    command = replace(command, delivery=Delivery(TELEGRAM, "9"))
    assert await h.manager.handle_delivered(command)  # answered
    assert await h.manager.handle_delivered(command) is None  # the copy: nothing
    assert h.manager.duplicates == 1


async def test_the_process_that_took_the_table_over_drops_the_copy(postgres_server) -> None:
    address = postgres_server.database()
    clock = FakeClock()
    a = await opened(address, clock, "a")
    try:
        await a.say("ann", "/new erqiwang", lang="en")
        await a.deliver(addbot(7))
        assert ai_seats(a.manager) == 1
        await a.manager.release_leases()  # a stops: b takes its tables over at once
    finally:
        await a.db.close()
    b = await opened(address, clock, "b")
    try:
        await b.deliver(addbot(7))  # Telegram re-sends the post to the other process
        assert ai_seats(b.manager) == 1
        assert b.manager.duplicates == 1
        await b.deliver(addbot(8))
        assert ai_seats(b.manager) == 2
    finally:
        await b.db.close()
