"""Two table managers on one PostgreSQL database, as two bot processes: a table is one's at a
time, the other refuses or forwards its commands; when the owner stops, the other takes the
table over after the lease runs out and the hand settles as an uninterrupted one would; the
old owner, waking from a stall, stores and sends nothing."""

from __future__ import annotations

from bot.hosting import table_leases
from bot.hosting.manager import TableManager
from bot.hosting.table_leases import Ownership
from storage import Database
from tests.bot.harness import CHAT, FakeClock, Harness

SEED = 4


async def two_processes(
    address: str, clock: FakeClock, forwarding: bool = False
) -> tuple[Harness, Harness]:
    """Processes a and b on one database (taking handed-on updates at http://a and http://b
    when ``forwarding``, as Telegram's do; else none, as Discord's)."""

    async def process(name: str) -> Harness:
        ownership = Ownership(name, f"http://{name}" if forwarding else "", 15)
        return Harness(await Database.open(address), clock, SEED, ownership)

    return await process("a"), await process("b")


async def open_table(h: Harness, game: str) -> None:
    await h.say("ann", f"/new {game}", lang="en")
    for _ in range(3):
        await h.say("ann", "/addbot")
    await h.say("ann", "/start")
    await h.say("ann", "/auto")  # Ann on 托管: the table plays every seat by itself


async def step(h: Harness) -> None:
    """The table's next move: the clock at its deadline, one timer pass."""
    table = h.manager.tables[CHAT]
    if table.deadline is not None:
        h.clock.now = max(h.clock.now, table.deadline)
    await h.manager.tick()


async def first_hand(db: Database) -> tuple[list[dict[str, object]], object]:
    hands = await db.hands_of(CHAT)
    return hands[0].actions, hands[0].result


async def play_out_first_hand(h: Harness) -> None:
    for _ in range(2000):
        hands = await h.db.hands_of(CHAT)
        if hands and hands[0].result is not None:
            return
        await step(h)
    raise AssertionError("the hand never settled")


async def uninterrupted(tmp_path, game: str) -> tuple[list[dict[str, object]], object, object]:
    reference = await Harness.open(str(tmp_path / f"reference-{game}.sqlite3"), FakeClock(), SEED)
    try:
        await open_table(reference, game)
        await play_out_first_hand(reference)
        actions, result = await first_hand(reference.db)
        return actions, result, await reference.db.leaderboard(CHAT)
    finally:
        await reference.db.close()


async def test_a_table_moves_to_the_other_process_when_its_owner_stops(postgres_server, tmp_path):
    for game in ("situan", "erqiwang"):
        address = postgres_server.database()
        clock = FakeClock()
        a, b = await two_processes(address, clock, forwarding=True)
        try:
            await open_table(a, game)
            for _ in range(9):
                await step(a)
            # While a holds the table, b sends its updates to a, and refuses a command that
            # reached it anyway, changing nothing.
            assert await b.manager.forward_address(CHAT, "bob", private=False) == "http://a"
            assert await b.manager.forward_address("dm-ann", "ann", private=True) == "http://a"
            assert await a.manager.forward_address(CHAT, "bob", private=False) is None
            stored = len((await first_hand(a.db))[0])
            refused = await b.say("bob", "/join", lang="en")
            assert [m.text for m in refused] == [
                "This table moved to another server a moment ago. Please try again."
            ]
            assert CHAT not in b.manager.tables
            asked = await b.say("ann", "/hand", chat="dm-ann", private=True, lang="en")
            assert [m.text for m in asked] == [
                "Your table is run by another of this bot's servers: play it with the buttons "
                "at the table."
            ]
            assert len((await first_hand(a.db))[0]) == stored

            # a stops (no more timer passes). Until its lease runs out b leaves the table be;
            # then b takes it, tells the group, and plays on.
            clock.advance(14)
            await b.manager.tick()
            assert CHAT not in b.manager.tables
            clock.advance(1.5)
            await b.manager.tick()
            assert CHAT in b.manager.tables
            assert any("restored" in text for text in b.recorder.texts("group"))
            assert await b.manager.forward_address(CHAT, "bob", private=False) is None
            assert await a.manager.forward_address(CHAT, "bob", private=False) is None
            assert await b.manager.forward_address("dm-ann", "ann", private=True) is None
            await step(b)

            # a wakes from its stall and acts on its old copy of the table: the step is
            # not stored, nothing is sent, and a forgets the table.
            sent_by_a = len(a.recorder.sent)
            stored = len((await first_hand(a.db))[0])
            await step(a)
            assert len(a.recorder.sent) == sent_by_a
            assert CHAT not in a.manager.tables
            assert len((await first_hand(a.db))[0]) == stored
            assert (await a.manager.forward_address(CHAT, "bob", private=False)) == "http://b"

            await play_out_first_hand(b)
            actions, result = await first_hand(b.db)
            expected = await uninterrupted(tmp_path, game)
            assert (actions, result) == expected[:2], game
            assert await b.db.leaderboard(CHAT) == expected[2]
        finally:
            await a.db.close()
            await b.db.close()


async def test_a_process_restarted_under_its_name_is_a_new_owner(postgres_server):
    """Two starts of one BOT_PROCESS_ID are two owners, so that a deploy that starts the new
    process before the old one stops never has both run a table: the new start waits out the
    old one's lease, unless the old one stopped cleanly and gave its tables up."""
    first, second = Ownership.started("cards-1"), Ownership.started("cards-1")
    assert first.owner != second.owner and first.owner.startswith("cards-1#")
    address = postgres_server.database()
    clock = FakeClock()
    old = Harness(await Database.open(address), clock, SEED, first)
    await open_table(old, "situan")
    await step(old)
    new = TableManager(await Database.open(address), old.recorder, clock=clock, ownership=second)
    try:
        await new.restore()
        assert CHAT not in new.tables  # the old one still runs it
        await old.manager.release_leases()  # …until it stops cleanly
        await new.tick()
        assert CHAT in new.tables and CHAT in new.held
    finally:
        await old.db.close()
        await new.db.close()


async def test_a_table_goes_to_the_process_its_chat_talks_to(postgres_server):
    """As on Discord, where a channel's commands reach the process of its shard only: a
    command there for a table another process holds asks for it, and on their next renewals
    the owner hands it over and the asker takes it on, the hand going on."""
    clock = FakeClock()
    a, b = await two_processes(postgres_server.database(), clock)
    try:
        await open_table(a, "erqiwang")
        await step(a)
        refused = await b.say("ann", "/hand", lang="en")
        assert [m.text for m in refused] == [
            "This table moved to another server a moment ago. Please try again."
        ]
        clock.advance(5)  # a third of a lease: a's renewal hands the table over
        await a.manager.tick()
        assert CHAT not in a.manager.tables
        await b.manager.tick()  # b's renewal finds the table its own, and takes it on
        assert CHAT in b.manager.tables and CHAT in b.manager.held
        before = len(b.manager.tables[CHAT].hand.history)
        await step(b)
        assert len(b.manager.tables[CHAT].hand.history) == before + 1
    finally:
        await a.db.close()
        await b.db.close()


async def test_a_private_command_for_a_table_held_elsewhere_says_where_to_play(postgres_server):
    """On Discord a direct message reaches shard 0's process, which may not hold the table:
    a button of that table does not go to another table of the player's there, nor say there
    is no table: it says where to play, and nothing changes."""
    clock = FakeClock()
    a, b = await two_processes(postgres_server.database(), clock)
    try:
        await open_table(a, "situan")
        await b.say("ann", "/new erqiwang", chat="group-2", lang="en")  # Ann sits at b too
        where = (
            "Your table is run by another of this bot's servers: play it with the "
            "buttons at the table."
        )
        button = await b.say("ann", "/hand", chat=CHAT, private=True, lang="en")
        assert [m.text for m in button] == [where]
        assert CHAT not in b.manager.tables and CHAT in a.manager.tables
    finally:
        await a.db.close()
        await b.db.close()


async def test_a_dead_processes_many_tables_are_taken_over_a_few_at_a_time(
    postgres_server, monkeypatch
):
    """Taking over is done a share per timer pass, so that a process taking over a dead one's
    thousands of tables goes on renewing its own leases and running its tables meanwhile."""
    monkeypatch.setattr(table_leases, "TAKEOVERS_PER_PASS", 2)
    clock = FakeClock()
    a, b = await two_processes(postgres_server.database(), clock)
    try:
        chats = [f"group-{n}" for n in range(5)]
        for chat in chats:
            await a.say("ann", "/new situan", chat=chat, lang="en")
        await b.say("bob", "/new situan", chat="b-own", lang="en")
        clock.advance(14)
        await b.manager.tick()  # b renews its own lease; a renews nothing: it died
        clock.advance(2)
        taken = []
        for _ in range(3):
            await b.manager.tick()
            taken.append(len(b.manager.held & set(chats)))
            clock.advance(1)
        assert taken == [2, 4, 5]
        assert "b-own" in b.manager.held and "b-own" in b.manager.tables
    finally:
        await a.db.close()
        await b.db.close()
