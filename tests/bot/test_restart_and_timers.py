"""bot.md: Time and absence; a restart keeps every table (storage on a real SQLite file)."""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from bot.i18n import t
from bot.table.state import PLAYING
from storage import Database
from storage.db import MIGRATIONS
from storage.rows import TableRow, TimerRow
from tests.bot.harness import FakeClock, Harness, table_with_three_bots, until_seat_zero_acts

ROOT = Path(__file__).resolve().parents[2]


def console(db: Path, game: str) -> list[str]:
    return [sys.executable, "-m", "bot", "console", "--humans", "0", "--hands", "4", "--seed",
            "7", "--game", game, "--db", str(db), "--lang", "en", "--ai-delay", "0"]  # fmt: skip


async def match_over(db_path: Path) -> bool:
    db = await Database.open(str(db_path))
    try:
        return not await db.open_tables() and bool(await db.hands_of("console"))
    finally:
        await db.close()


async def final_ledger(db_path: Path) -> list[tuple[str, str]]:
    db = await Database.open(str(db_path))
    try:
        return sorted(await db.leaderboard("console"))
    finally:
        await db.close()


def stored_actions(db_path: Path) -> int:
    """How many actions the running process has committed (read beside it: WAL)."""
    if not db_path.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=1) as connection:
            return int(connection.execute("SELECT count(*) FROM actions").fetchone()[0])
    except sqlite3.OperationalError:  # not created yet
        return 0


@pytest.mark.parametrize("game", ["situan", "erqiwang"])
async def test_a_match_killed_at_random_points_and_restarted_settles_as_if_uninterrupted(
    tmp_path: Path, game: str
):
    clean = tmp_path / "clean.sqlite3"
    done = subprocess.run(
        console(clean, game), cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    expected = await final_ledger(clean)
    total = stored_actions(clean)
    assert len(expected) == 4 and total > 100

    killed = tmp_path / "killed.sqlite3"
    rng = random.Random(game)
    targets = sorted(rng.randint(total // 10, total * 9 // 10) for _ in range(3))
    for target in targets:  # killed once this many actions are stored: a random point
        already = stored_actions(killed)
        crash = ["--crash-after-actions", str(target - already)]  # counted by that process
        process = subprocess.run(
            [*console(killed, game), *crash], cwd=ROOT, capture_output=True, text=True, timeout=300
        )
        assert process.returncode == 137, process.stderr  # ended as a SIGKILL ends it
        assert stored_actions(killed) == target  # right after that commit, nothing more
        assert not await match_over(killed), "the kill came after the end: nothing was tested"
    final = subprocess.run(
        console(killed, game), cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert final.returncode == 0, final.stderr
    assert await match_over(killed)
    assert await final_ledger(killed) == expected


async def test_a_restart_in_the_middle_of_a_hand_continues_with_nothing_lost(tmp_path: Path):
    path = str(tmp_path / "bot.sqlite3")
    clock = FakeClock()
    first = await table_with_three_bots(path, clock)
    table = first.table()
    history = [repr(a) for a in table.hand.history]
    held = [table.hand.cards_of(s) for s in range(4)]
    await first.db.close()

    second = await Harness.open(path, clock, seed=4)
    await second.manager.restore()
    restored = second.table()
    assert restored.state == PLAYING and restored.hand_number == 1
    assert [repr(a) for a in restored.hand.history] == history
    assert [restored.hand.cards_of(s) for s in range(4)] == held
    assert t("zh-Hans", "Table restored after a restart.") in second.recorder.texts("group")
    assert second.recorder.texts("table")  # a fresh table message
    await second.db.close()


async def test_timers_resume_with_the_time_that_was_left(tmp_path: Path):
    path = str(tmp_path / "bot.sqlite3")
    clock = FakeClock()
    first = await table_with_three_bots(path, clock)
    table = first.table()
    assert table.deadline == pytest.approx(clock.now + 60, abs=1.5)
    left_at_stop = table.deadline - (clock.now + 20)
    clock.advance(20)
    await first.manager.tick()  # the heartbeat: the bot was alive 20 s into the turn
    first.manager._last_heartbeat = 0
    await first.manager.tick()
    await first.db.close()
    clock.advance(600)  # the bot was down for ten minutes
    second = await Harness.open(path, clock, seed=4)
    await second.manager.restore()
    assert second.table().deadline == pytest.approx(clock.now + left_at_stop, abs=1.5)
    await second.db.close()


async def test_at_the_time_limit_the_table_acts_counts_and_tells_the_group(tmp_path: Path):
    clock = FakeClock()
    h = await Harness.open(str(tmp_path / "bot.sqlite3"), clock, seed=4)
    await h.say("ann", "/new situan", lang="en")
    await h.say("ann", "/settings timeouts_for_auto 3")  # 四团's default is the first one
    for _ in range(3):
        await h.say("ann", "/addbot")
    await h.say("ann", "/start")
    table = h.table()
    for count in (1, 2, 3):
        await until_seat_zero_acts(h)
        h.recorder.clear()
        clock.advance(59)
        acted = len(table.hand.history)
        await h.manager.tick()
        assert len(table.hand.history) == acted  # not yet: at most a reminder
        assert [m.kind for m in h.recorder.sent if m.kind == "group"] == []
        clock.advance(1)
        await h.manager.tick()
        times = "once" if count == 1 else f"{count} times"
        # Said once, in the table state that follows (never a post kept as its header).
        assert h.recorder.texts("table")[-1].endswith(f"\nAnn has timed out {times}.")
        assert not [text for text in h.recorder.texts("group") if "timed out" in text]
    assert table.hand.auto[0]  # three time-outs: 托管
    await until_seat_zero_acts(h)
    assert table.deadline == pytest.approx(clock.now + 1.0)  # on 托管 the table plays at once
    hand = table.hand
    move = (
        "/pass"
        if hand.can_pass
        else "/play "
        + "".join(
            ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "LJ", "BJ"][r]
            for r in hand.legal_plays()[0].ranks
        )
    )
    await h.say("ann", move)
    assert not table.hand.auto[0]  # acting again ends 托管
    await h.db.close()


async def test_a_seat_not_ready_in_time_is_kept_and_played_on_auto(tmp_path: Path):
    """Bob misses the ready time while Ann is ready: he keeps his seat (no AI player takes
    it) and the next hand is dealt with him on 托管."""
    clock = FakeClock()
    h = await Harness.open(str(tmp_path / "bot.sqlite3"), clock, seed=4)
    await h.say("ann", "/new situan")
    await h.say("bob", "/join")
    for _ in range(2):
        await h.say("ann", "/addbot")
    table = h.table()
    table.set_table_options(replace(table.table_options, max_hands=0))
    await h.say("ann", "/start")
    await h.say("ann", "/auto on")
    await h.say("bob", "/auto on")
    await h.run_until(lambda: table.state == "between")
    await h.say("ann", "/ready")
    clock.advance(61)
    await h.manager.tick()
    assert table.seats[1] is not None and table.seats[1].user == "bob"  # not replaced
    assert table.state == PLAYING and table.hand_number == 2
    assert "没有准备，这一局托管：Bob。" in h.recorder.texts("group")
    clock.now = max(clock.now, table.deadline)
    await h.manager.tick()  # the new hand's first step: the away are put on 托管
    assert table.hand.auto[1] and not table.hand.auto[0]
    await h.db.close()


async def test_storage_migrates_a_fresh_file_and_keeps_wal_mode(tmp_path: Path):
    db = await Database.open(str(tmp_path / "x.sqlite3"))
    assert await db.schema_version() == len(MIGRATIONS)
    await db.close()
    db = await Database.open(str(tmp_path / "x.sqlite3"))  # a second open changes nothing
    assert await db.schema_version() == len(MIGRATIONS)
    await db.close()
    with sqlite3.connect(tmp_path / "x.sqlite3") as closed:  # WAL is the file's own, kept
        assert closed.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_a_version_1_file_is_migrated_forward_keeping_its_players(tmp_path: Path):
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as old:
        old.executescript(MIGRATIONS[0])
        old.execute("CREATE TABLE schema_version (version INTEGER)")
        old.execute("INSERT INTO schema_version VALUES (1)")
        old.execute("INSERT INTO players (user, name) VALUES ('tg:1', 'Ann')")
    db = await Database.open(str(path))
    assert await db.schema_version() == len(MIGRATIONS)
    assert await db.reachable_users("tg:") == set()
    await db.set_reachable("tg:1", "Ann")
    await db.set_reachable("tg:2", "Bob")
    assert await db.reachable_users("tg:") == {"tg:1", "tg:2"}
    assert await db.reachable_users("dc:") == set()
    await db.close()


def test_a_console_stopped_before_its_match_began_starts_it_when_run_again(tmp_path: Path):
    db = tmp_path / "lobby.sqlite3"
    setup = (
        "import asyncio\n"
        "from bot.reading.command import parse_command\n"
        "from bot.hosting.manager import TableManager\n"
        "from storage import Database\n"
        "async def main():\n"
        f"    db = await Database.open({str(db)!r})\n"
        "    async def send(message): pass\n"
        "    manager = TableManager(db, send)\n"
        "    await manager.handle(parse_command('/new situan', 'you', 'You', 'console'))\n"
        "    await db.close()\n"
        "asyncio.run(main())\n"
    )
    subprocess.run([sys.executable, "-c", setup], cwd=ROOT, check=True, timeout=60)
    done = subprocess.run(
        console(db, "situan"), cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr


async def test_a_timer_saved_after_the_settings_wins_until_the_next_full_save(tmp_path: Path):
    db = await Database.open(str(tmp_path / "t.sqlite3"))
    settings = {"deadline": 10.0, "turn_count": 1, "saved_at": 5.0, "preset": "classic"}
    async with db.transaction() as tx:
        await tx.save_tables([TableRow("c", "erqiwang", "playing", settings)])
        await tx.save_timers([TimerRow("c", 70.0, 4, 12.0)])
    (stored,) = await db.open_tables()
    assert stored.settings == {**settings, "deadline": 70.0, "turn_count": 4, "saved_at": 12.0}
    async with db.transaction() as tx:  # no deadline: the hand is waiting on nobody
        await tx.save_timers([TimerRow("c", None, 5, 13.0)])
    (stored,) = await db.open_tables()
    assert stored.settings["deadline"] is None and stored.settings["turn_count"] == 5
    async with db.transaction() as tx:
        await tx.save_tables([TableRow("c", "erqiwang", "playing", {**settings, "turn_count": 9})])
    (stored,) = await db.open_tables()
    assert stored.settings["turn_count"] == 9 and stored.settings["deadline"] == 10.0
    await db.close()


async def test_in_situan_the_first_time_out_puts_the_player_on_tuoguan_and_says_how_back(
    tmp_path: Path,
):
    clock = FakeClock()
    h = await table_with_three_bots(str(tmp_path / "bot.sqlite3"), clock, lang="en")
    table = h.table()
    h.recorder.clear()
    clock.advance(60)
    await h.manager.tick()
    assert h.recorder.texts("table")[-1].endswith("\nAnn has timed out once.")
    assert table.hand.auto[0]
    told = [
        m.text
        for m in h.recorder.sent
        if m.kind == "private" and m.user == "ann" and m.slot is None
    ]
    assert any("/auto off" in text for text in told), told
    await h.db.close()
