"""Issue 38, item 7: closed tables are forgotten — they leave memory as soon as their closing
step is stored, with their chat's lock, and `/score` right after a match still shows its final
score (read from storage); the store forgets them after the retention period
(``BOT_RETENTION_DAYS``), and what they played stays for `/stats`, `/top` and `/export`."""

from __future__ import annotations

import gc
import json
import sqlite3
import weakref
from pathlib import Path

import pytest

from adapters.startup import StartupError
from bot.ops.config import load
from bot.ops.defaults import DAY, RETENTION_DAYS
from bot.reading.command import parse_command
from bot.table.state import CLOSED
from tests.bot.harness import CHAT, FakeClock, Harness, start_ai_match

CHATS = 500
"""Chats that each open and stop a table (``bench/forget_tables.py`` runs 5,000)."""


def stored_rows(path: Path, table: str) -> int:
    with sqlite3.connect(path) as db:
        count: int = db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    return count


@pytest.fixture
async def harness(tmp_path: Path):
    h = await Harness.open(str(tmp_path / "forget.sqlite3"))
    yield h
    await h.db.close()


async def typed(harness: Harness, user: str, text: str, chat: str) -> None:
    """A command straight to the manager (the harness would remember the table it saw)."""
    command = parse_command(text, user, user.title(), chat)
    assert command is not None
    await harness.manager.handle(command)


async def test_chats_that_opened_and_stopped_a_table_leave_nothing_in_memory(harness):
    manager = harness.manager
    await harness.say("ann", "/new situan")  # one table stays open throughout
    closed: list[weakref.ref[object]] = []
    for number in range(CHATS):
        chat = f"chat-{number}"
        await typed(harness, f"user-{number}", "/new situan", chat)
        closed.append(weakref.ref(manager.tables[chat]))
        await typed(harness, f"user-{number}", "/stop", chat)
        harness.clock.advance(1.0)
    assert list(manager.tables) == [CHAT]
    assert set(manager.open.locks()) == {CHAT}
    assert set(manager.keeper.hand_ids) | set(manager.keeper.stored_actions) <= {CHAT}
    gc.collect()
    assert not [ref for ref in closed if ref() is not None], "a closed table is still referenced"


async def test_a_match_ended_by_its_timer_leaves_memory_and_its_lock(harness):
    await start_ai_match(harness, "situan")
    table = harness.table()
    await harness.run_until(lambda: table.state == CLOSED)
    assert CHAT not in harness.manager.tables
    assert harness.manager.open.locks() == {}


async def test_score_right_after_a_match_ends_shows_its_final_score(harness):
    # 二七王: its one hand always settles (a 四团 series may carry over, and Ann, on 托管,
    # plays none of the next hand: the table would pause, not end).
    await start_ai_match(harness, "erqiwang")
    table = harness.table()
    await harness.run_until(lambda: table.state == CLOSED)
    (ended,) = [text for text in harness.recorder.texts("group") if "The match is over." in text]
    final = ended.split("\n", 1)[1]
    assert any(amount != 0 for amount in table.ledger.values())  # a score worth showing
    assert [m.text for m in await harness.say("bob", "/score")] == [final]
    # Storage keeps it, not memory: a restarted bot shows it too.
    again = Harness(harness.db, harness.clock)
    await again.manager.restore()
    assert [m.text for m in await again.say("bob", "/score")] == [final]


async def test_score_right_after_stop_shows_the_final_score(harness):
    await start_ai_match(harness, "erqiwang", "max_hands 3")
    table = harness.table()
    await harness.run_until(lambda: any(amount != 0 for amount in table.ledger.values()))
    assert table.state != CLOSED  # a hand is settled, the match goes on
    stopped = await harness.say("ann", "/stop")
    assert table.state == CLOSED and CHAT not in harness.manager.tables
    (ended,) = [m.text for m in stopped if "The match is over." in m.text]
    final = ended.split("\n", 1)[1]
    assert [m.text for m in await harness.say("bob", "/score")] == [final]


async def test_score_where_no_table_was_ever_opened_says_there_is_none(harness):
    (answer,) = await harness.say("bob", "/score", lang="en")
    assert answer.text.startswith("No table here.")


async def test_a_new_table_replaces_the_closed_one_in_storage_too(tmp_path: Path):
    harness = await Harness.open(str(tmp_path / "again.sqlite3"), FakeClock())
    try:
        await harness.say("ann", "/new situan")
        await harness.say("ann", "/stop")
        assert await harness.db.closed_table(CHAT) is not None
        await harness.say("bob", "/new erqiwang")
        assert harness.table().game == "erqiwang" and harness.table().host == "bob"
        assert await harness.db.closed_table(CHAT) is None  # the chat's table is open again
    finally:
        await harness.db.close()


async def test_chats_that_opened_and_stopped_a_table_leave_the_store_after_the_retention(
    tmp_path: Path,
):
    path = tmp_path / "retained.sqlite3"
    harness = await Harness.open(str(path))
    try:
        manager = harness.manager
        await manager.tick()  # the first heartbeat, as at start: nothing to forget yet
        for number in range(CHATS):
            await typed(harness, f"user-{number}", "/new situan", f"chat-{number}")
            await typed(harness, f"user-{number}", "/stop", f"chat-{number}")
        harness.clock.advance(10 * DAY)
        await typed(harness, "late", "/new situan", "late")
        await typed(harness, "late", "/stop", "late")  # closed 10 days after the others
        assert stored_rows(path, "tables") == CHATS + 1
        harness.clock.advance(RETENTION_DAYS * DAY - 10 * DAY + 1.0)
        await manager.tick()  # a heartbeat, an hour after the last forgetting
        assert stored_rows(path, "tables") == 1  # the one closed later is kept for now
        assert await harness.db.closed_table("late") is not None
        assert not manager.tables and not manager.open.locks()
        harness.clock.advance(10 * DAY)
        await manager.tick()
        assert stored_rows(path, "tables") == 0
    finally:
        await harness.db.close()


async def test_stats_top_and_export_still_answer_after_the_retention_forgot_the_table(harness):
    await start_ai_match(harness, "situan")
    table = harness.table()
    await harness.run_until(lambda: table.state == CLOSED)
    (stats,) = await harness.say("ann", "/stats")
    (top,) = await harness.say("ann", "/top")
    (export,) = await harness.say("ann", "/export")
    harness.clock.advance(RETENTION_DAYS * DAY + 1.0)
    await harness.manager.tick()
    assert await harness.db.closed_table(CHAT) is None  # forgotten
    (score,) = await harness.say("ann", "/score", lang="en")
    assert score.text.startswith("No table here.")
    assert [m.text for m in await harness.say("ann", "/stats")] == [stats.text]
    assert "共 0 局" not in stats.text  # there is something to show
    assert [m.text for m in await harness.say("ann", "/top")] == [top.text]
    (again,) = await harness.say("ann", "/export")
    assert again.filename == export.filename and json.loads(again.text)["actions"]


async def test_a_table_closed_within_the_retention_is_kept_with_its_score(harness):
    await start_ai_match(harness, "situan")
    table = harness.table()
    await harness.run_until(lambda: table.state == CLOSED)
    (before,) = await harness.say("bob", "/score")
    harness.clock.advance(RETENTION_DAYS * DAY - 60.0)
    await harness.manager.tick()
    assert [m.text for m in await harness.say("bob", "/score")] == [before.text]


@pytest.mark.parametrize(
    ("value", "days"), [("", 30.0), ("7", 7.0), (" 0.5 ", 0.5), ("0", 0.0), ("36500", 36500.0)]
)
def test_the_retention_is_read_in_days(value: str, days: float):
    assert load({"BOT_RETENTION_DAYS": value}).retention_seconds == days * DAY
    assert load({}).retention_seconds == RETENTION_DAYS * DAY


@pytest.mark.parametrize("value", ["-1", "thirty", "nan", "1e9", "inf", "x" * 10_000])
def test_a_retention_that_is_not_a_number_of_days_stops_the_start(value: str):
    with pytest.raises(StartupError, match="BOT_RETENTION_DAYS") as raised:
        load({"BOT_RETENTION_DAYS": value})
    assert len(str(raised.value)) < 100  # the value is cut short, never echoed whole
