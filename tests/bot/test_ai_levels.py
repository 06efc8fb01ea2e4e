"""Issue 14, items 4 and 5: a level per AI seat (`/addbot hard`, the table's ``ai_level``,
the console's ``--ai``), shown and stored; a ``hard`` decision is made in a worker thread, so
other tables do not wait on it, and is dropped if the table moved on meanwhile."""

from __future__ import annotations

import asyncio
import signal
import threading
from pathlib import Path
from typing import Any

from bot.table import ai_turns
from bot.table.state import CLOSED, PLAYING
from tests.bot.harness import CHAT, FakeClock, Harness
from tests.bot.test_console import read_until, started, stored_settings


async def opened(tmp_path: Path, game: str = "erqiwang") -> Harness:
    harness = await Harness.open(str(tmp_path / "levels.sqlite3"), FakeClock(), seed=3)
    await harness.say("ann", f"/new {game}", lang="en")
    return harness


async def test_addbot_takes_a_level_shows_it_and_keeps_it_across_a_restart(tmp_path):
    harness = await opened(tmp_path)
    out = await harness.say("ann", "/addbot hard")
    assert [m.text for m in out] == ["An AI player (hard) sits at seat 2."]
    await harness.say("ann", "/addbot 简单")
    await harness.say("ann", "/addbot")  # the table's default
    assert [s.level for s in harness.table().seats[1:]] == ["hard", "easy", "normal"]
    out = await harness.say("ann", "/start")
    dealt = [m.text for m in out if m.text.startswith("Hand 1 is dealt.")]
    assert dealt == ["Hand 1 is dealt.\nAI players: AI 2 hard · AI 3 easy · AI 4 normal."]
    await harness.db.close()
    again = await Harness.open(str(tmp_path / "levels.sqlite3"), FakeClock())
    try:
        await again.manager.restore()
        assert [s.level for s in again.table().seats[1:]] == ["hard", "easy", "normal"]
    finally:
        await again.db.close()


async def test_an_unknown_level_is_refused_with_the_choices_and_changes_nothing(tmp_path):
    harness = await opened(tmp_path)
    try:
        before = [(t.settings, t.updated) for t in await harness.db.open_tables()]
        out = await harness.say("ann", "/addbot genius")
        assert [m.text for m in out] == ["Say easy, normal or hard (简单/普通/困难)."]
        out = await harness.say("ann", "/settings ai_level 11")
        assert [m.text for m in out] == ["Say easy, normal or hard (简单/普通/困难)."]
        assert [(t.settings, t.updated) for t in await harness.db.open_tables()] == before
        assert harness.table().seats[1:] == [None, None, None]
    finally:
        await harness.db.close()


async def test_the_tables_level_applies_to_its_ai_players_and_to_those_it_seats(tmp_path):
    harness = await opened(tmp_path)
    try:
        await harness.say("ann", "/addbot")
        out = await harness.say("ann", "/settings ai_level easy")
        assert [m.text for m in out] == ["ai_level (level of AI players) is now easy."]
        await harness.say("ann", "/addbot")
        assert [s.level for s in harness.table().seats[1:3]] == ["easy", "easy"]
        out = await harness.say("ann", "/settings ai_level 困难", lang="zh-Hans")
        assert harness.table().seats[1].level == harness.table().seats[2].level == "hard"
    finally:
        await harness.db.close()


class GatedPlayer:
    """The real hard player, held at a gate until the test opens it (in its worker thread)."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.gate = threading.Event()
        self.asked = threading.Event()
        self.threads: list[str] = []

    def decide(self, view: Any, legal: Any) -> Any:
        self.threads.append(threading.current_thread().name)
        self.asked.set()
        assert self.gate.wait(10), "the test never opened the gate"
        return self.real.decide(view, legal)


async def thinking_hard(tmp_path: Path, monkeypatch: Any) -> tuple[Harness, GatedPlayer]:
    """Ann bids 120 at a 二七王 table of three hard AI players; AI 2 is then thinking, held
    at the gate in its worker thread."""
    gated = GatedPlayer(ai_turns.ai_player("erqiwang", "hard"))
    monkeypatch.setitem(ai_turns._PLAYERS, ("erqiwang", "hard", 1.0), gated)
    harness = await opened(tmp_path)
    for _ in range(3):
        await harness.say("ann", "/addbot hard")
    await harness.say("ann", "/start")
    await harness.say("ann", "/bid 120")  # Ann (the first seat) bids first; AI 2 is to act next
    assert harness.table().state == PLAYING and harness.table().turn_seat == 1
    harness.clock.advance(5)
    await harness.manager.tick()
    await asyncio.to_thread(gated.asked.wait, 10)
    return harness, gated


async def let_go(harness: Harness, gated: GatedPlayer) -> None:
    gated.gate.set()
    await harness.manager.thinking.settle()
    await harness.db.close()


async def test_a_hard_decision_is_made_off_the_loop_and_other_tables_go_on(tmp_path, monkeypatch):
    harness, gated = await thinking_hard(tmp_path, monkeypatch)
    try:
        table = harness.table()
        assert harness.manager.thinking.busy(CHAT)
        assert gated.threads and gated.threads[0] != threading.current_thread().name
        # While AI 2 thinks, another table is served, and this one is not ticked again.
        await harness.say("bob", "/new situan", chat="group-b", lang="en")
        out = await harness.say("bob", "/addbot", chat="group-b")
        assert [m.text for m in out] == ["An AI player (normal) sits at seat 2."]
        await harness.manager.tick()
        assert len(gated.threads) == 1 and table.turn_seat == 1
        gated.gate.set()
        await harness.manager.thinking.settle()
        assert table.turn_seat == 2 and len(table.hand.view(None).bids) == 2
        hands = await harness.db.hands_of(CHAT)
        assert len(hands[-1].actions) == 2  # stored: Ann's bid and AI 2's
    finally:
        await let_go(harness, gated)


async def test_a_decision_for_a_table_that_moved_on_is_dropped(tmp_path, monkeypatch):
    harness, gated = await thinking_hard(tmp_path, monkeypatch)
    try:
        await harness.say("ann", "/stop")  # the host ends the match while AI 2 thinks
        gated.gate.set()
        await harness.manager.thinking.settle()
        table = harness.table()
        assert table.state == CLOSED and table.hand is None
        hands = await harness.db.hands_of(CHAT)
        assert len(hands[-1].actions) == 1  # only Ann's bid: the late decision was dropped
    finally:
        await let_go(harness, gated)


def test_the_console_seats_ai_players_of_the_level_asked_for(tmp_path: Path):
    db = tmp_path / "ai.sqlite3"
    process = started(db, "--ai", "easy")
    read_until(process, "Your hand")
    process.send_signal(signal.SIGINT)
    process.communicate(timeout=20)

    assert [seat[4] for seat in stored_settings(db)["seats"][1:]] == ["easy", "easy", "easy"]
