"""Issue 55, item 3: ``/practice situan|erqiwang`` in a private chat deals at once to the person
and three AI players of the chosen level, at a table with hints, no time limit unless asked,
the rule beside each refusal, and hands that count in no /stats, /top or record."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.table.state import CLOSED, PLAYING
from tests.bot.harness import FakeClock, Harness, start_ai_match

DM = "dm-ann"


async def practising(tmp_path: Path, words: str, lang: str = "en") -> tuple[Harness, list]:
    harness = await Harness.open(str(tmp_path / "practice.sqlite3"), FakeClock(), seed=4)
    out = await harness.say("ann", f"/practice {words}", chat=DM, private=True, lang=lang)
    return harness, out


async def until(harness: Harness, chat: str, condition, limit: int = 5000) -> None:
    """Let the table of ``chat`` act at each of its deadlines until ``condition(table)``."""
    for _ in range(limit):
        table = harness.table(chat)
        if condition(table):
            return
        assert table.deadline is not None, "the table waits for no one"
        harness.clock.now = max(harness.clock.now, table.deadline)
        await harness.manager.tick()
        await harness.manager.thinking.settle()
    raise AssertionError("condition never became true")


@pytest.mark.parametrize("game", ["situan", "erqiwang"])
async def test_practice_deals_at_once_to_the_person_and_three_ai_players(tmp_path, game):
    harness, out = await practising(tmp_path, f"{game} hard")
    try:
        table = harness.table(DM)
        assert table.state == PLAYING and table.hand_number == 1
        assert table.seats[0].user == "ann"
        assert [(s.ai, s.level) for s in table.seats[1:]] == [(True, "hard")] * 3
        assert table.table_options.practice_mode == "on"
        assert out[0].text.startswith("Practice: ") and "No time limit" in out[0].text
        assert "/stats" in out[0].text
    finally:
        await harness.db.close()


async def test_practice_is_for_a_private_chat_and_a_group_is_told_how(tmp_path):
    harness = await Harness.open(str(tmp_path / "practice.sqlite3"), FakeClock())
    try:
        out = await harness.say("ann", "/practice situan", lang="en")
        assert [m.text for m in out] == [
            "Practice happens in a private chat with the bot: send it /practice situan "
            "(or erqiwang)."
        ]
        assert harness.manager.tables == {}
    finally:
        await harness.db.close()


async def test_a_practice_turn_waits_for_the_person_and_timed_keeps_the_limit(tmp_path):
    harness, _ = await practising(tmp_path, "situan")
    try:
        await until(harness, DM, lambda table: table.turn_seat == 0)
        table = harness.table(DM)
        assert table.deadline is None  # no time-out: nothing to wake the table for
        # Its call names no seconds (it said "60 s" of a turn that never times out).
        calls = [text for text in harness.recorder.texts(user="ann") if "Your turn" in text]
        assert calls and calls[-1].startswith("Your turn · Situan (四团): "), calls
        turn = table.turn_count
        harness.clock.advance(3600)
        await harness.manager.tick()
        assert table.turn_count == turn and table.turn_seat == 0
    finally:
        await harness.db.close()
    (tmp_path / "timed").mkdir()
    harness, out = await practising(tmp_path / "timed", "situan timed")
    try:
        assert "Your turns are timed" in out[0].text
        await until(harness, DM, lambda table: table.turn_seat == 0)
        assert harness.table(DM).deadline is not None
        calls = [text for text in harness.recorder.texts(user="ann") if "Your turn" in text]
        assert calls and calls[-1].startswith("Your turn · Situan (四团) · 60 s: "), calls
    finally:
        await harness.db.close()


async def test_a_refusal_at_a_practice_table_says_the_rule_and_offers_a_hint(tmp_path):
    harness, _ = await practising(tmp_path, "situan", lang="zh-Hans")
    try:
        await until(harness, DM, lambda table: table.turn_seat == 0)
        turn = harness.table(DM).turn_count
        out = await harness.say("ann", "/play 3 4", chat=DM, private=True, lang="zh-Hans")
        text = out[0].text
        assert "四团每次只出一种点数" in text  # the rule behind not_a_combination
        assert text.endswith("拿不准？用 /hint 看一个合规的出法和理由。")
        assert harness.table(DM).turn_count == turn
        out = await harness.say("ann", "/hint", chat=DM, private=True, lang="zh-Hans")
        assert out[0].text.startswith("提示：")  # hints without a limit: no count told
        assert "本局还剩提示" not in out[0].text
    finally:
        await harness.db.close()


async def test_practice_hands_count_in_no_stats_top_or_record(tmp_path):
    harness, _ = await practising(tmp_path, "erqiwang")
    try:
        await harness.say("ann", "/auto on", chat=DM, private=True)
        await until(harness, DM, lambda table: table.hand is not None and table.hand.over)
        (stored,) = await harness.db.hands_of(DM)
        assert stored.result is not None  # the hand itself is kept (restart, replay)
        assert (await harness.db.player_stats("ann"))["hands"] == 0
        assert await harness.db.leaderboard(DM) == []
        assert await harness.manager.records.record_of(DM, "ann") is None
        # The same finished hand at a table that is not practising counts.
        await start_ai_match(harness, "situan")
        await harness.run_until(lambda: harness.table().state == CLOSED)  # its one hand over
        assert (await harness.db.player_stats("ann"))["hands"] == 1
    finally:
        await harness.db.close()
