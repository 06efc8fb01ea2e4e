"""storage: what is written in a transaction reads back the same on SQLite and on PostgreSQL;
a transaction that raises leaves nothing; tables follow their chat."""

from __future__ import annotations

import asyncio
import sqlite3
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage import (
    ActionRow,
    Database,
    LedgerLine,
    TableRow,
    TimerRow,
    open_database,
)
from storage import postgres as postgres_back_end
from storage import sqlite as sqlite_back_end
from storage.base import UPDATES_KEPT_FOR
from storage.postgres import PostgresDatabase
from storage.sqlite import SqliteDatabase

SETTINGS = {"preset": "classic", "名字": "四团", "seats": [{"user": "tg:1", "ai": False}]}


def migrations_of(db: Database) -> tuple[str, ...]:
    back_end = postgres_back_end if isinstance(db, PostgresDatabase) else sqlite_back_end
    return back_end.MIGRATIONS


async def a_finished_hand(
    db: Database, chat: str, match: str, number: int, lines: list[LedgerLine]
) -> int:
    async with db.transaction() as tx:
        hand_id = await tx.start_hand(chat, match, number, {"deal": number})
        await tx.finish_hand(hand_id, chat, {"winner": 0}, lines)
    return hand_id


def line(user: str, amount: str, name: str = "", first_out: bool = False, bonus: str = "0"):
    return LedgerLine(user, name or user, amount, first_out, bonus)


# --------------------------------------------------------------------- opening and migrating


async def test_an_address_chooses_the_back_end(tmp_path, shared_postgres_address):
    path = str(tmp_path / "a.sqlite3")
    for address, kind in [
        (path, SqliteDatabase),
        (":memory:", SqliteDatabase),
        (shared_postgres_address, PostgresDatabase),
        (shared_postgres_address.replace("postgresql://", "postgres://", 1), PostgresDatabase),
    ]:
        db = await open_database(address)
        assert type(db) is kind
        await db.close()
        db = await Database.open(address)
        assert type(db) is kind
        await db.close()


async def test_an_empty_database_is_migrated_to_the_latest_version_once(empty_address):
    db = await open_database(empty_address)
    latest = len(migrations_of(db))
    assert await db.schema_version() == latest
    assert await db.open_tables() == []
    assert await db.hands_of("c") == []
    await db.close()
    db = await open_database(empty_address)  # a second open changes nothing
    assert await db.schema_version() == latest
    await db.close()


async def test_two_processes_opening_a_new_postgres_database_at_once_both_see_it_migrated(
    postgres_server,
):
    address = postgres_server.database()
    first, second = await asyncio.gather(open_database(address), open_database(address))
    for db in (first, second):
        assert await db.schema_version() == len(postgres_back_end.MIGRATIONS)
        await db.close()


async def test_a_version_1_sqlite_file_is_upgraded_to_the_latest_version(tmp_path):
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as old:
        old.executescript(sqlite_back_end.MIGRATIONS[0])
        old.execute("CREATE TABLE schema_version (version INTEGER)")
        old.execute("INSERT INTO schema_version VALUES (1)")
        old.execute("INSERT INTO players (user, name, lang) VALUES ('tg:1', 'Ann', 'en')")
    db = await open_database(str(path))
    assert await db.schema_version() == len(sqlite_back_end.MIGRATIONS)
    assert await db.player_lang("tg:1") == "en"
    await db.close()


# --------------------------------------------------------------------- tables and timers


async def test_saved_tables_read_back_and_closed_ones_are_not_open(db):
    async with db.transaction() as tx:
        await tx.save_tables(
            [TableRow("a", "situan", "lobby", SETTINGS), TableRow("b", "erqiwang", "closed", {})]
        )
    (stored,) = await db.open_tables()
    assert (stored.chat, stored.game, stored.state, stored.settings) == (
        "a",
        "situan",
        "lobby",
        SETTINGS,
    )
    assert list(stored.settings) == list(SETTINGS)  # key order kept, as JSON text
    async with db.transaction() as tx:
        await tx.save_tables([TableRow("a", "situan", "playing", {"preset": "spade3"})])
    (stored,) = await db.open_tables()
    assert stored.state == "playing" and stored.settings == {"preset": "spade3"}


async def test_a_closed_table_reads_back_as_its_closing_step_stored_it(db):
    async with db.transaction() as tx:
        await tx.save_tables(
            [
                TableRow("a", "situan", "lobby", SETTINGS),
                TableRow("b", "erqiwang", "closed", SETTINGS),
            ]
        )
    closed = await db.closed_table("b")
    assert closed is not None and (closed.chat, closed.game, closed.state) == (
        "b",
        "erqiwang",
        "closed",
    )
    assert closed.settings == SETTINGS
    assert await db.closed_table("a") is None  # open
    assert await db.closed_table("nowhere") is None


async def test_tables_closed_before_the_retention_are_forgotten_and_their_history_stays(db):
    async with db.transaction() as tx:
        await tx.save_tables(
            [
                TableRow("old", "situan", "closed", SETTINGS, updated=10.0),
                TableRow("recent", "situan", "closed", SETTINGS, updated=100.0),
                TableRow("open", "situan", "lobby", SETTINGS, updated=5.0),  # idle, still open
            ]
        )
        for chat, expires in (("old", 40.0), ("recent", 200.0), ("open", 40.0), ("none", 40.0)):
            await tx.claim(chat, "p1", "", 0.0, expires)
    await a_finished_hand(db, "old", "m", 1, [line("ann", "3/2")])
    assert await db.forget_closed_tables(closed_before=50.0, now=60.0) == 1
    assert await db.closed_table("old") is None
    assert await db.closed_table("recent") is not None
    assert [t.chat for t in await db.open_tables()] == ["open"]
    # Leases that ran out go with chats that have no open table; a lease in force stays.
    assert set(await db.leases_of(["old", "recent", "open", "none"], 0.0)) == {"recent", "open"}
    assert len(await db.hands_of("old")) == 1  # the hand record and the ledger stay
    assert await db.leaderboard("old") == [("ann", "3/2")]
    assert (await db.player_stats("ann"))["hands"] == 1
    assert await db.forget_closed_tables(closed_before=50.0, now=60.0) == 0


async def test_a_timer_saved_after_the_settings_wins_until_the_next_full_save(db):
    settings = {"deadline": 10.0, "turn_count": 1, "saved_at": 5.0, "preset": "classic"}
    async with db.transaction() as tx:
        await tx.save_tables([TableRow("c", "erqiwang", "playing", settings)])
        await tx.save_timers([TimerRow("c", 70.0, 4, 12.0)])
    (stored,) = await db.open_tables()
    assert stored.settings == {**settings, "deadline": 70.0, "turn_count": 4, "saved_at": 12.0}
    assert stored.updated == 12.0
    async with db.transaction() as tx:
        await tx.save_timers([TimerRow("c", None, 5, 13.0), TimerRow("nobody", 1.0, 1, 1.0)])
    (stored,) = await db.open_tables()
    assert stored.settings["deadline"] is None and stored.settings["turn_count"] == 5
    async with db.transaction() as tx:
        await tx.save_tables([TableRow("c", "erqiwang", "playing", {**settings, "turn_count": 9})])
    (stored,) = await db.open_tables()
    assert stored.settings["turn_count"] == 9 and stored.settings["deadline"] == 10.0


async def test_a_deleted_table_is_gone_and_its_hands_stay(db):
    async with db.transaction() as tx:
        await tx.save_tables(
            [TableRow("gone", "situan", "playing", {}), TableRow("kept", "situan", "lobby", {})]
        )
    await a_finished_hand(db, "gone", "m", 1, [line("u", "1")])
    async with db.transaction() as tx:
        await tx.delete_table("gone")
        await tx.delete_table("never-there")
    assert [t.chat for t in await db.open_tables()] == ["kept"]
    assert len(await db.hands_of("gone")) == 1
    assert await db.leaderboard("gone") == [("u", "1")]


async def test_a_moved_table_takes_its_hands_and_ledger_to_the_new_chat(db):
    async with db.transaction() as tx:
        await tx.save_tables([TableRow("tg:-1", "situan", "playing", SETTINGS)])
        await tx.save_tables([TableRow("tg:-100", "erqiwang", "lobby", {})])  # replaced
    hand_id = await a_finished_hand(db, "tg:-1", "m", 1, [line("ann", "3/2")])
    async with db.transaction() as tx:
        running = await tx.start_hand("tg:-1", "m", 2, {"deal": 2})
        await tx.append_actions([ActionRow(running, 0, {"play": "S7"})])
    async with db.transaction() as tx:
        await tx.move_table("tg:-1", "tg:-100")
    (stored,) = await db.open_tables()
    assert (stored.chat, stored.game, stored.settings) == ("tg:-100", "situan", SETTINGS)
    hands = await db.hands_of("tg:-100")
    assert [h.id for h in hands] == [hand_id, running]
    assert hands[1].actions == [{"play": "S7"}]
    assert await db.hands_of("tg:-1") == []
    assert await db.leaderboard("tg:-100") == [("ann", "3/2")]
    assert await db.leaderboard("tg:-1") == []


# --------------------------------------------------------------------- hands


async def test_a_hand_reads_back_with_its_start_actions_in_order_and_result(db):
    start = {"rules": {"preset": "nanchang"}, "deal": [["S3", "大王"]], "first": 2}
    async with db.transaction() as tx:
        hand_id = await tx.start_hand("c", "m1", 1, start)
        await tx.append_actions(
            [ActionRow(hand_id, 1, {"seat": 1}), ActionRow(hand_id, 0, {"seat": 0})]
        )
    (hand,) = await db.hands_of("c")
    assert (hand.id, hand.number, hand.start, hand.result) == (hand_id, 1, start, None)
    assert hand.actions == [{"seat": 0}, {"seat": 1}]
    async with db.transaction() as tx:
        await tx.append_actions([ActionRow(hand_id, 2, {"seat": 2})])
        await tx.finish_hand(hand_id, "c", {"winners": [0, 2], "说明": "双下"}, [line("u", "2")])
    (hand,) = await db.hands_of("c")
    assert hand.actions == [{"seat": 0}, {"seat": 1}, {"seat": 2}]
    assert hand.result == {"winners": [0, 2], "说明": "双下"}


async def test_hands_of_keeps_to_its_chat_match_and_numbers_oldest_first(db):
    ids = {}
    async with db.transaction() as tx:
        for chat, match, number in [
            ("c", "m1", 1),
            ("c", "m1", 2),
            ("d", "m1", 1),
            ("c", "m2", 1),
            ("c", "m2", 2),
            ("c", "m2", 3),
        ]:
            hand_id = await tx.start_hand(chat, match, number, {"n": number})
            ids[chat, match, number] = hand_id
            await tx.append_actions(
                [ActionRow(hand_id, seq, {"hand": hand_id, "seq": seq}) for seq in range(3)]
            )

    def keys(hands):
        return [next(k for k, v in ids.items() if v == h.id) for h in hands]

    every = await db.hands_of("c")
    assert keys(every) == [
        ("c", "m1", 1),
        ("c", "m1", 2),
        ("c", "m2", 1),
        ("c", "m2", 2),
        ("c", "m2", 3),
    ]
    for hand in every:
        assert hand.actions == [{"hand": hand.id, "seq": seq} for seq in range(3)]
    assert keys(await db.hands_of("c", "m2")) == [("c", "m2", 1), ("c", "m2", 2), ("c", "m2", 3)]
    assert keys(await db.hands_of("c", "m2", since_number=2)) == [("c", "m2", 2), ("c", "m2", 3)]
    assert keys(await db.hands_of("c", since_number=2)) == [
        ("c", "m1", 2),
        ("c", "m2", 2),
        ("c", "m2", 3),
    ]
    assert await db.hands_of("c", "m3") == []


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**53), 2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(exclude_categories=["Cs"])),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.text(st.characters(exclude_categories=["Cs"]), max_size=8), inner, max_size=4
        )
    ),
    max_leaves=12,
)
json_objects = st.dictionaries(st.text(max_size=8), json_values, max_size=5)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(start=json_objects, action=json_objects, result=json_objects)
async def test_any_json_object_reads_back_exactly(db, start, action, result):
    async with db.transaction() as tx:
        hand_id = await tx.start_hand("json", "m", 1, start)
        await tx.append_actions([ActionRow(hand_id, 0, action)])
        await tx.finish_hand(hand_id, "json", result, [])
        await tx.save_tables([TableRow("json", "situan", "lobby", start)])
    try:
        (hand,) = await db.hands_of("json")
        assert (hand.start, hand.actions, hand.result) == (start, [action], result)
        assert repr(hand.start) == repr(start)  # key order too
        (table,) = await db.open_tables()
        assert table.settings == start
    finally:
        async with db.transaction() as tx:  # the fixture empties the database per test only
            await tx.move_table("json", f"done-{hand_id}")
            await tx.delete_table(f"done-{hand_id}")


# --------------------------------------------------------------------- transactions


async def test_a_transaction_that_raises_writes_nothing(db):
    async with db.transaction() as tx:
        await tx.save_tables([TableRow("c", "situan", "lobby", {"v": 1})])
    with pytest.raises(KeyError):
        async with db.transaction() as tx:
            await tx.save_tables([TableRow("c", "situan", "playing", {"v": 2})])
            await tx.save_tables([TableRow("new", "situan", "lobby", {})])
            hand_id = await tx.start_hand("c", "m", 1, {})
            await tx.append_actions([ActionRow(hand_id, 0, {})])
            await tx.finish_hand(hand_id, "c", {}, [line("u", "1")])
            await tx.set_player("u", "U", "en")
            await tx.set_reachable("u", "U")
            await tx.set_meta("k", "v")
            await tx.move_table("c", "moved")
            raise KeyError("the step failed half-way")
    (stored,) = await db.open_tables()
    assert (stored.chat, stored.state, stored.settings) == ("c", "lobby", {"v": 1})
    assert await db.hands_of("c") == [] and await db.hands_of("moved") == []
    assert await db.player_lang("u") is None and await db.reachable_users("") == set()
    assert await db.meta("k") is None and await db.leaderboard("c") == []
    async with db.transaction() as tx:  # the writer lock was given back
        await tx.set_meta("k", "after")
    assert await db.meta("k") == "after"


async def test_a_cancelled_transaction_writes_nothing(db):
    entered = asyncio.Event()

    async def step() -> None:
        async with db.transaction() as tx:
            await tx.set_meta("k", "half")
            entered.set()
            await asyncio.sleep(60)

    task = asyncio.create_task(step())
    await entered.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await db.meta("k") is None


async def test_one_writer_at_a_time_in_the_order_they_asked(db):
    order: list[str] = []

    async def step(name: str, pause: float) -> None:
        async with db.transaction() as tx:
            order.append(f"{name} in")
            await asyncio.sleep(pause)
            await tx.set_meta("last", name)
            order.append(f"{name} out")

    await asyncio.gather(step("a", 0.05), step("b", 0), step("c", 0))
    assert order == ["a in", "a out", "b in", "b out", "c in", "c out"]
    assert await db.meta("last") == "c"


async def test_a_transaction_inside_another_on_the_same_task_is_refused(db):
    async with db.transaction():
        with pytest.raises(RuntimeError, match="inside another"):
            async with db.transaction():
                pass
        with pytest.raises(RuntimeError, match="inside another"):
            await db.set_meta("k", "v")  # takes its own transaction


async def test_a_transaction_cannot_be_written_to_after_its_block(db):
    async with db.transaction() as tx:
        pass
    with pytest.raises(RuntimeError, match="has ended"):
        await tx.set_meta("k", "v")


# --------------------------------------------------------------------- players, stats, meta


async def test_players_keep_their_language_until_told_another(db):
    await db.set_player("tg:1", "Ann", "zh-Hant")
    await db.set_player("tg:1", "Ann Lee")  # no language: keep the stored one
    assert await db.player_lang("tg:1") == "zh-Hant"
    async with db.transaction() as tx:
        await tx.set_player("tg:1", "Ann", "en")
    assert await db.player_lang("tg:1") == "en"
    assert await db.player_lang("tg:2") is None


async def test_reachable_users_are_found_by_their_id_prefix_only(db):
    await db.set_player("tg:3", "Cy", "en")  # known, never opened the bot
    await db.set_reachable("tg:1", "Ann")
    await db.set_reachable("tg:2", "Bob")
    await db.set_reachable("tg:2", "Bob")
    await db.set_reachable("dc:1", "Dan")
    await db.set_reachable("tgx9", "not a tg: id")
    assert await db.reachable_users("tg:") == {"tg:1", "tg:2"}
    assert await db.reachable_users("dc:") == {"dc:1"}
    assert await db.reachable_users("t_") == set()  # no pattern characters
    assert await db.reachable_users("%") == set()
    await db.set_player("tg:1", "Ann", "en")  # naming a player keeps them reachable
    assert "tg:1" in await db.reachable_users("tg:")


async def test_meta_values_are_replaced(db):
    assert await db.meta("alive_at") is None
    await db.set_meta("alive_at", "1.5")
    async with db.transaction() as tx:
        await tx.set_meta("alive_at", "2.5")
    assert await db.meta("alive_at") == "2.5"


async def test_an_update_is_taken_once_within_the_hour(db):
    assert await db.first_delivery("telegram:1", "7", now=1000.0)
    assert not await db.first_delivery("telegram:1", "7", now=1001.0)
    assert not await db.first_delivery("telegram:1", "7", now=1000.0 + UPDATES_KEPT_FOR - 1)
    assert await db.first_delivery("telegram:2", "7", now=1001.0)  # another bot's update 7
    assert await db.first_delivery("discord", "7", now=1001.0)
    assert await db.first_delivery("telegram:1", "8", now=1001.0)
    # An hour on it is forgotten, so an id Telegram chose anew is taken.
    assert await db.first_delivery("telegram:1", "7", now=1001.0 + UPDATES_KEPT_FOR)


async def test_a_rolled_back_first_delivery_leaves_the_update_to_take(db):
    with pytest.raises(RuntimeError):
        async with db.transaction() as tx:
            assert await tx.first_delivery("discord", "99", now=5.0)
            raise RuntimeError("the step failed")
    assert await db.first_delivery("discord", "99", now=6.0)


async def test_processes_sharing_a_database_take_an_update_once(postgres_server):
    """Several processes, each with its own pool, offered the same updates at once: each is
    taken by exactly one of them."""
    address = postgres_server.database()
    processes = [await open_database(address) for _ in range(4)]
    try:
        for update in range(20):
            taken = await asyncio.gather(
                *(db.first_delivery("telegram:1", str(update), now=10.0) for db in processes)
            )
            assert sorted(taken) == [False, False, False, True], update
    finally:
        for db in processes:
            await db.close()


async def test_stats_and_the_leaderboard_sum_exact_fractions(db):
    await a_finished_hand(
        db, "c", "m", 1, [line("ann", "1/3", "Ann", True, "1/2"), line("bob", "-1/3")]
    )
    await a_finished_hand(db, "c", "m", 2, [line("ann", "1/6", "Annie"), line("bob", "1/2")])
    await a_finished_hand(db, "c", "m", 3, [line("cy", "1/2"), line("ann", "-1/2", "Annie")])
    await a_finished_hand(db, "other", "m", 1, [line("ann", "100", "Ann")])
    assert await db.player_stats("ann") == {
        "hands": 4,
        "wins": 3,
        "total": "100",
        "first_out": 1,
        "bonus_hands": 1,
    }
    assert await db.player_stats("bob") == {
        "hands": 2,
        "wins": 1,
        "total": "1/6",
        "first_out": 0,
        "bonus_hands": 0,
    }
    assert await db.player_stats("nobody") == {
        "hands": 0,
        "wins": 0,
        "total": "0",
        "first_out": 0,
        "bonus_hands": 0,
    }
    # ann 0 (1/3 + 1/6 - 1/2), bob 1/6, cy 1/2: ties (none here) keep first appearance
    assert await db.leaderboard("c") == [("cy", "1/2"), ("bob", "1/6"), ("Annie", "0")]
    assert await db.leaderboard("c", limit=2) == [("cy", "1/2"), ("bob", "1/6")]
    assert Fraction((await db.leaderboard("other"))[0][1]) == 100


async def test_leaderboard_ties_keep_the_order_players_first_appeared(db):
    await a_finished_hand(db, "c", "m", 1, [line("zed", "1"), line("amy", "1"), line("max", "1")])
    assert [name for name, _ in await db.leaderboard("c")] == ["zed", "amy", "max"]


# --------------------------------------------------------------------- the SQLite methods kept
