"""Table leases, on SQLite and on PostgreSQL: one owner at a time, taken over only once run
out, renewed only while held, and a step of a table that is no longer ours stores nothing."""

from __future__ import annotations

import asyncio

import pytest

from storage import ActionRow, Database, TableRow, open_database
from storage.leases import Lease, LeaseLost

SETTINGS = {"preset": "classic", "seats": [["tg:7", "Ann", False, False, "normal"]]}


async def claim(db: Database, chat: str, owner: str, now: float, seconds: float = 10) -> Lease:
    async with db.transaction() as tx:
        return await tx.claim(chat, owner, f"http://{owner}", now, now + seconds)


async def a_table(db: Database, chat: str, state: str = "playing") -> None:
    async with db.transaction() as tx:
        await tx.save_tables([TableRow(chat, "situan", state, SETTINGS)])


async def test_a_lease_is_one_owners_until_it_runs_out(db):
    assert await claim(db, "tg:-1", "a", now=100) == Lease("tg:-1", "a", "http://a", 110)
    assert (await claim(db, "tg:-1", "b", now=105)).owner == "a"  # in force: b gets nothing
    assert (await claim(db, "tg:-1", "a", now=106)).expires == 116  # its owner moves it on
    taken = await claim(db, "tg:-1", "b", now=116)  # run out: anyone may take it
    assert taken == Lease("tg:-1", "b", "http://b", 126)
    assert await db.leases_of(["tg:-1", "tg:-2"], now=120) == {"tg:-1": taken}
    assert await db.leases_of(["tg:-1"], now=126) == {}


async def test_renewing_keeps_only_the_leases_still_held(db):
    await claim(db, "tg:-1", "a", now=100)
    await claim(db, "tg:-2", "a", now=100, seconds=2)
    await claim(db, "tg:-3", "b", now=100)
    async with db.transaction() as tx:
        assert await tx.renew("a", now=103, until=113) == {"tg:-1"}  # tg:-2 ran out at 102
    held = await db.leases_of(["tg:-1", "tg:-2", "tg:-3"], now=111)
    assert {chat: lease.owner for chat, lease in held.items()} == {"tg:-1": "a"}  # b's ran out


async def test_a_step_of_a_table_no_longer_held_stores_nothing(db):
    await a_table(db, "tg:-1")
    await claim(db, "tg:-1", "a", now=100, seconds=5)
    await claim(db, "tg:-1", "b", now=106)  # a stalled past its expiry; b took the table
    async with db.transaction() as tx:
        hand = await tx.start_hand("tg:-1", "m", 1, {"deal": 1})
    with pytest.raises(LeaseLost) as lost:
        async with db.transaction() as tx:
            await tx.append_actions([ActionRow(hand, 0, {"play": "a's late step"})])
            await tx.hold("a", ["tg:-1"], now=107, until=117)
    assert lost.value.chats == ["tg:-1"]
    assert (await db.hands_of("tg:-1"))[0].actions == []  # rolled back with the hold
    async with db.transaction() as tx:  # the owner's step goes through and renews
        await tx.append_actions([ActionRow(hand, 0, {"play": "b's step"})])
        await tx.hold("b", ["tg:-1"], now=107, until=130)
    assert (await db.hands_of("tg:-1"))[0].actions == [{"play": "b's step"}]
    assert (await db.leases_of(["tg:-1"], now=129))["tg:-1"].owner == "b"


async def test_orphaned_tables_are_the_open_ones_nobody_holds(db):
    for chat in ("tg:-1", "tg:-2", "tg:-3"):
        await a_table(db, chat)
    await a_table(db, "tg:-4", state="closed")
    await claim(db, "tg:-1", "a", now=100)
    await claim(db, "tg:-2", "a", now=100, seconds=1)
    assert await db.orphaned_tables(now=105) == ["tg:-2", "tg:-3"]
    async with db.transaction() as tx:
        await tx.release("a", ["tg:-1"])
    assert await db.orphaned_tables(now=105) == ["tg:-1", "tg:-2", "tg:-3"]


async def test_a_players_tables_are_found_through_their_settings(db):
    await a_table(db, "tg:-1")
    await a_table(db, "tg:-2", state="closed")
    found = await db.tables_mentioning('"tg:7"')
    assert [(chat, state) for chat, state, _ in found] == [("tg:-1", "playing")]
    assert await db.tables_mentioning('"tg:8"') == []


@pytest.mark.parametrize("held_before", [False, True])
async def test_two_processes_claiming_one_table_at_once_give_it_one_owner(
    back_end, address, db, held_before
):
    """Each claim on its own connection (its own process, in effect), all at the same moment:
    of a table nobody held, and of one whose owner's lease has just run out (the upsert's
    condition is looked at again on the row as the winner left it)."""
    await a_table(db, "tg:-1")
    if held_before:
        await claim(db, "tg:-1", "dead", now=80, seconds=5)
    others = [await open_database(address) for _ in range(4)]
    try:
        leases = await asyncio.gather(
            *(claim(other, "tg:-1", f"p{n}", now=100) for n, other in enumerate(others))
        )
    finally:
        for other in others:
            await other.close()
    assert len({lease.owner for lease in leases}) == 1
    assert (await db.leases_of(["tg:-1"], now=101))["tg:-1"].owner == leases[0].owner


async def test_a_lease_asked_for_is_handed_to_the_asker_by_its_owner(db):
    await claim(db, "tg:-1", "a", now=100)
    await claim(db, "tg:-2", "a", now=100)
    async with db.transaction() as tx:
        await tx.ask_for("tg:-1", "b", "http://b")
        await tx.ask_for("tg:-2", "a", "http://a")  # its own owner asking changes nothing
        assert await tx.hand_over("b", now=101, until=111) == []  # only the owner hands over
    assert (await claim(db, "tg:-1", "a", now=102)).owner == "a"  # renewing keeps the ask
    async with db.transaction() as tx:
        assert await tx.hand_over("a", now=103, until=113) == ["tg:-1"]
        assert await tx.renew("b", now=104, until=114) == {"tg:-1"}  # b holds it now
        assert await tx.hand_over("b", now=104, until=114) == []  # asked once, handed once
    leases = await db.leases_of(["tg:-1", "tg:-2"], 105)
    assert {chat: (lease.owner, lease.address) for chat, lease in leases.items()} == {
        "tg:-1": ("b", "http://b"),  # updates for it are forwarded to b now
        "tg:-2": ("a", "http://a"),
    }
