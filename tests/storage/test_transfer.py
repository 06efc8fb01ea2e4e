"""export-db / import-db: a database moved to a JSON-lines file and into the other back end
reads back the same, and exports the same file again; hands keep their ids."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from bot.community.record_book import RecordBook
from bot.games import RECORD_READERS
from storage import ActionRow, Database, LedgerLine, TableRow, TimerRow, open_database
from storage.ratings import RatingMove
from storage.transfer import TransferError, export_to, import_from
from tests.pg_server import PostgresServer

SETTINGS = {"preset": "classic", "名字": "四团", "seats": [{"user": "tg:1", "ai": False}]}


async def fill(db: Database) -> None:
    """A bit of everything: open, closed and timer-moved tables, finished and running hands
    of two matches, fractional ledger lines, players with and without a language."""
    async with db.transaction() as tx:
        await tx.save_tables(
            [
                TableRow("tg:-100", "situan", "playing", SETTINGS),
                TableRow("dc:7", "erqiwang", "lobby", {"preset": "p", "x": 1.5}),
                TableRow("tg:-5", "situan", "closed", {"preset": "old"}),
            ]
        )
        await tx.save_timers([TimerRow("tg:-100", 1_700_000_123.25, 7, 1_700_000_100.5)])
        await tx.set_player("tg:1", "Ann", "en")
        await tx.set_player("tg:2", "白", None)
        await tx.set_player("dc:3", "Cy", "zh-Hant")
        await tx.set_reachable("tg:1", "Ann")
        await tx.set_reachable("dc:4", "Dee")
        await tx.set_meta("alive_at", "1700000000.125")
        await tx.set_meta("名", "值")
    lines = [
        LedgerLine("tg:1", "Ann", "3/2", True, "1/2"),
        LedgerLine("tg:2", "白", "-3/2", False, "0"),
    ]
    for chat, match, number in [("tg:-100", "m1", 1), ("tg:-100", "m1", 2), ("dc:7", "m9", 1)]:
        async with db.transaction() as tx:
            hand = await tx.start_hand(chat, match, number, {"deal": number, "牌": ["♠A"]})
            await tx.append_actions([ActionRow(hand, i, {"play": i}) for i in range(3)])
            await tx.finish_hand(hand, chat, {"winner": number % 2}, lines)
    async with db.transaction() as tx:  # a hand still running, in a new match
        hand = await tx.start_hand("tg:-100", "m2", 1, {"deal": 0})
        await tx.append_actions([ActionRow(hand, 0, {"bid": 2})])
    async with db.transaction() as tx:  # /notify, told once; achievements announced
        await tx.subscribe("tg:-100", "tg:1", "牌友群", 1_700_000_001.5)
        await tx.subscribe("tg:-100", "tg:2", "牌友群", 1_700_000_002.0)
        await tx.subscribe("dc:7", "tg:1", "Cards", 1_700_000_003.0)
        await tx.mark_told("tg:-100", ["tg:2"], 1_700_000_050.25)
        await tx.announce("tg:-100", "tg:1", "double", 1_700_000_060.0)
        await tx.announce("dc:7", "tg:1", "bonus:皇上", 1_700_000_061.0)
    async with db.transaction() as tx:  # ratings: one rated hand, one rating never moved
        await tx.ratings_to_update("situan", ["tg:1", "tg:2", "dc:3"], 25.0, 25 / 3)
        await tx.save_ratings(
            "situan",
            1,
            1_700_000_070.5,
            [
                RatingMove("tg:1", "Ann", 25.0, 25 / 3, 27.125, 8.0),
                RatingMove("tg:2", "白", 25.0, 25 / 3, 22.875, 8.0),
            ],
        )


async def dump_of(db: Database) -> list[dict[str, Any]]:
    return [row async for row in db.dump()]


async def reads_of(db: Database) -> dict[str, Any]:
    """What the bot can read back, for every chat and player the database knows."""
    rows = await dump_of(db)
    chats = sorted({row["chat"] for row in rows if "chat" in row})
    users = sorted({row["user"] for row in rows if "user" in row})
    keys = sorted(row["key"] for row in rows if row["kind"] == "meta")
    return {
        "open_tables": sorted(await db.open_tables(), key=lambda table: table.chat),
        "hands": {chat: await db.hands_of(chat) for chat in chats},
        "m1": await db.hands_of("tg:-100", "m1", 2),
        "leaderboard": {chat: await db.leaderboard(chat) for chat in chats},
        "stats": {user: await db.player_stats(user) for user in users},
        "langs": {user: await db.player_lang(user) for user in users},
        "reachable": [await db.reachable_users(p) for p in ("", "tg:", "dc:")],
        "meta": {key: await db.meta(key) for key in keys},
        "subscribers": {chat: await db.subscribers(chat) for chat in chats},
        "subscriptions": {user: await db.subscriptions_of(user) for user in users},
        "announced": {chat: await db.announced(chat) for chat in chats},
        "finished": {chat: await db.finished_hands(chat) for chat in chats},
        "ratings": {user: await db.ratings_of(user) for user in users},
        "board": await db.rating_board("situan"),
        "moves": await db.rating_moves("situan", 0.0),
    }


async def test_sqlite_to_postgres_and_back_reads_and_exports_the_same(
    tmp_path: Path, postgres_server: PostgresServer
):
    source = await open_database(str(tmp_path / "source.sqlite3"))
    await fill(source)
    expected = await reads_of(source)
    first = tmp_path / "first.jsonl"
    counts = await export_to(source, first)
    await source.close()
    assert counts == {
        "meta": 2,
        "player": 4,
        "table": 3,
        "hand": 4,
        "action": 10,
        "ledger": 6,
        "subscription": 3,
        "achievement": 2,
        "rating": 3,
        "rating_change": 2,
    }

    postgres = await open_database(postgres_server.database())
    assert await import_from(postgres, first) == counts
    assert await reads_of(postgres) == expected
    second = tmp_path / "second.jsonl"
    await export_to(postgres, second)
    assert second.read_text(encoding="utf-8") == first.read_text(encoding="utf-8")
    await postgres.close()

    back = await open_database(str(tmp_path / "back.sqlite3"))
    await import_from(back, second)
    assert await reads_of(back) == expected
    third = tmp_path / "third.jsonl"
    await export_to(back, third)
    assert third.read_text(encoding="utf-8") == first.read_text(encoding="utf-8")
    await back.close()


async def test_the_file_is_a_header_then_one_readable_row_a_line(tmp_path: Path):
    db = await open_database(str(tmp_path / "a.sqlite3"))
    await fill(db)
    path = tmp_path / "out.jsonl"
    await export_to(db, path)
    await db.close()
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    assert header["format"] == "cardbot-export" and header["version"] == 1
    rows = [json.loads(line) for line in lines[1:]]
    kinds = [row["kind"] for row in rows]
    order = [
        "meta",
        "player",
        "table",
        "hand",
        "action",
        "ledger",
        "subscription",
        "achievement",
        "rating",
        "rating_change",
    ]
    assert kinds == sorted(kinds, key=order.index) and set(kinds) == set(order)
    assert '"key": "名"' in lines[2]  # written as it is, not \\u-escaped
    player = next(row for row in rows if row["kind"] == "player" and row["user"] == "tg:1")
    assert player == {
        "kind": "player",
        "user": "tg:1",
        "name": "Ann",
        "lang": "en",
        "reachable": True,
    }


async def test_an_imported_database_goes_on_with_new_hand_ids(
    back_end: str, empty_address: str, tmp_path: Path
):
    source = await open_database(str(tmp_path / "s.sqlite3"))
    await fill(source)
    ids = [hand.id for hand in await source.hands_of("tg:-100")]
    await export_to(source, tmp_path / "f.jsonl")
    await source.close()
    db = await open_database(empty_address)
    await import_from(db, tmp_path / "f.jsonl")
    assert [hand.id for hand in await db.hands_of("tg:-100")] == ids
    async with db.transaction() as tx:
        new = await tx.start_hand("tg:-100", "m2", 2, {"deal": 1})
        await tx.finish_hand(new, "tg:-100", {"w": 1}, [LedgerLine("tg:1", "Ann", "1", False, "0")])
    assert new > 4
    assert (await db.player_stats("tg:1"))["total"] == "11/2"
    await db.close()


async def test_import_refuses_a_database_that_holds_anything(back_end: str, db: Database, tmp_path):
    source = await open_database(str(tmp_path / "s.sqlite3"))
    await fill(source)
    await export_to(source, tmp_path / "f.jsonl")
    await source.close()
    await db.set_meta("k", "v")
    with pytest.raises(TransferError, match="not empty"):
        await import_from(db, tmp_path / "f.jsonl")
    assert await db.meta("k") == "v" and await db.open_tables() == []


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("", "not a cardbot export"),
        ('{"format": "other"}\n', "not a cardbot export"),
        ('{"format": "cardbot-export", "version": 9}\n', "version 9"),
        (
            '{"format": "cardbot-export", "version": 1}\n{"kind": "meta", "key": "a"}\n',
            "line 2: a meta row lacks value",
        ),
        (
            '{"format": "cardbot-export", "version": 1}\n{"kind": "meta", "key": "a", "value": "b"}'
            '\n{"kind": "seat"}\n',
            "line 3: unknown kind",
        ),
        (
            '{"format": "cardbot-export", "version": 1}\n{"kind": "meta", "key": "a", "value": "b"}'
            "\nnot json\n",
            "line 3: not JSON",
        ),
        (
            '{"format": "cardbot-export", "version": 1}\n'
            '{"kind": "ledger", "chat": "c", "hand": 1, "user": "u", "name": "n", "amount": "1",'
            ' "first_out": false, "bonus": "0"}\n{"kind": "meta", "key": "a", "value": "b"}\n',
            "line 3: a meta row after the ledger rows",
        ),
    ],
)
async def test_a_bad_file_is_refused_with_its_line_and_nothing_is_written(
    back_end: str, db: Database, tmp_path: Path, text: str, complaint: str
):
    path = tmp_path / "bad.jsonl"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(TransferError, match=complaint):
        await import_from(db, path)
    assert await db.is_empty()


async def test_a_dump_is_one_snapshot_while_the_bot_writes(back_end: str, db: Database):
    await fill(db)
    before = await dump_of(db)

    async def write() -> None:
        async with db.transaction() as tx:
            await tx.set_meta("later", "x")

    rows = []
    writing = None
    async for row in db.dump():
        if writing is None:
            writing = asyncio.create_task(write())
            await asyncio.sleep(0.05)
        rows.append(row)
    assert rows == before
    assert writing is not None
    await writing
    assert await db.meta("later") == "x"


async def test_achievements_are_not_announced_again_after_a_move(
    back_end: str, db: Database, tmp_path: Path
):
    """A group's first 上游 is announced, the database moved (into either back end): the
    moved one knows it was announced; one moved without those rows would announce it again."""
    source = await open_database(str(tmp_path / "source.sqlite3"))
    async with source.transaction() as tx:
        hand = await tx.start_hand("tg:-1", "m1", 1, {"game": "situan"})
        lines = [LedgerLine("tg:1", "Ann", "2", True, "0")] + [
            LedgerLine(f"ai:{seat}", f"AI {seat}", "-2/3", False, "0") for seat in (1, 2, 3)
        ]
        await tx.finish_hand(hand, "tg:-1", {"finish": [0, 2, 1, 3]}, lines)
    said = await RecordBook(source, RECORD_READERS, lambda: 5.0).announcements(
        "tg:-1", ["tg:1"], "situan", "en"
    )
    assert said is not None and "first out (上游) for the first time" in said
    path = tmp_path / "moved.jsonl"
    await export_to(source, path)
    await source.close()

    await import_from(db, path)
    book = RecordBook(db, RECORD_READERS, lambda: 9.0)
    assert await book.announcements("tg:-1", ["tg:1"], "situan", "en") is None
    assert (await book.record_of("tg:-1", "tg:1")).marks["first_out"] == 1

    kept = [
        line
        for line in path.read_text(encoding="utf-8").splitlines()
        if '"kind": "achievement"' not in line
    ]
    without = tmp_path / "without.jsonl"
    without.write_text("\n".join(kept) + "\n", encoding="utf-8")
    fresh = await open_database(str(tmp_path / "fresh.sqlite3"))
    await import_from(fresh, without)
    again = await RecordBook(fresh, RECORD_READERS, lambda: 9.0).announcements(
        "tg:-1", ["tg:1"], "situan", "en"
    )
    assert (
        again is not None and "first out (上游) for the first time" in again
    )  # what the rows prevent
    await fresh.close()
