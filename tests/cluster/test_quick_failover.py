"""A quick table whose process dies (issue 54, several processes on PostgreSQL): its lease
runs out, and it waits for a process that hears every player there. A process running no
Discord shard 0 (Discord delivers direct messages to shard 0 only) takes over the dead
process's group tables but not a quick table with a Discord player; the dead process started
again takes it back, the hand where it was."""

from __future__ import annotations

from bot.hosting.quick_reach import Reach
from bot.hosting.table_leases import Ownership
from bot.reading.command import parse_command
from storage import Database
from tests.bot.harness import FakeClock, Harness

LEASE = 15.0
BOTH = Reach.of_process(telegram=True, discord=True, shard_ids=(0,))
TELEGRAM_ONLY = Reach.of_process(telegram=True, discord=True, shard_ids=(1,))


async def process(address: str, clock: FakeClock, name: str, reach: Reach) -> Harness:
    return Harness(
        await Database.open(address), clock, 5, Ownership.started(name, "", LEASE), reach
    )


async def test_a_quick_table_waits_for_a_process_that_hears_its_players(postgres_server):
    address = postgres_server.database()
    clock = FakeClock()
    a = await process(address, clock, "a", BOTH)
    b = await process(address, clock, "b", TELEGRAM_ONLY)
    again = None
    try:
        for user, chat, name in (("tg:u1", "tg:1", "Ann"), ("dc:u2", "dc:900", "Bob")):
            quick = parse_command("/quick situan", user, name, chat, True, "en")
            await a.deliver(quick)
        await a.say("cy", "/new situan", chat="group-1", lang="en")  # a group's table of a's
        clock.advance(2)
        a.manager.quick.quick_wait = 1.0
        (quick_chat,) = await a.manager.quick.match()
        table = a.manager.tables[quick_chat]
        played = len(table.hand.history)
        # a dies: nothing renewed. Past its lease, b takes over what it may hold.
        clock.advance(LEASE + 1)
        await b.manager.tick()
        assert "group-1" in b.manager.held
        assert quick_chat not in b.manager.held and quick_chat not in b.manager.tables
        await b.manager.restore()  # nor at a start of its own
        assert quick_chat not in b.manager.tables
        # nor when its Telegram player writes to it: the table waits, the player is told so.
        told = await b.say("tg:u1", "/hand", chat="tg:1", private=True, lang="en")
        print("TOLD", [m.text for m in told])
        assert quick_chat not in b.manager.tables
        # a, started again (a new owner under its name), takes the quick table back.
        again = await process(address, clock, "a", BOTH)
        await again.manager.restore()
        back = again.manager.tables[quick_chat]
        assert quick_chat in again.manager.held
        assert len(back.hand.history) == played
        assert {seat.user for seat in back.seats if seat is not None and not seat.ai} == {
            "tg:u1",
            "dc:u2",
        }
    finally:
        await a.db.close()
        await b.db.close()
        if again is not None:
            await again.db.close()
