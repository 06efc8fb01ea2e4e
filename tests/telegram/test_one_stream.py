"""Issue 49 (c) through python-telegram-bot against the fake Bot API: one ordered stream per
group — a hand's settlement (its photo) always reaches the group before anything of the next
hand (its deal line, its table), however far the group's budget makes the posts lag behind.

Four AI players deal hand after hand with the tables' clock driven as fast as the test can
move it: the group's pacing (20 calls a minute, 30× faster than the wall clock here) lags
whole hands behind, the case where the audit saw hand 3's table posted before hand 2's
settlement photo."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.bot.harness import FakeClock
from tests.live_table import ai_move
from tests.telegram.world import TelegramWorld
from tests.waiting import eventually

ANN = 11
HANDS = 4
OF_HAND = re.compile(r"(?:第 (\d+) 局|hand (\d+))", re.I)
"""A hand's number as its deal line and its table's title say it."""


def text_of(call: Any) -> str:
    return str(call.params.get("text") or call.params.get("caption") or "")


def hands_out_of_order(calls: list[tuple[str, str]]) -> list[str]:
    """(method, text) of a group's calls in order: each call that shows hand n (its deal
    line or table) before hand n-1's settlement (the group's photo) was posted."""
    settled = 0
    wrong = []
    for method, text in calls:
        if method == "sendPhoto":
            settled += 1
            continue
        for found in OF_HAND.finditer(text):
            number = int(found[1] or found[2])
            if number - 1 > settled:
                wrong.append(f"hand {number} shown after {settled} settlements: {text[:60]!r}")
    return wrong


def test_the_check_sees_a_deal_before_a_settlement():
    calls = [("sendMessage", "第 1 局发牌了。"), ("sendPhoto", "结算"),
             ("sendMessage", "第 2 局发牌了。"), ("sendMessage", "四团 · 第 3 局"),
             ("sendPhoto", "结算")]  # fmt: skip
    assert hands_out_of_order(calls) == ["hand 3 shown after 1 settlements: '四团 · 第 3 局'"]


@pytest.mark.parametrize("game", ["situan", "erqiwang"])
async def test_a_settlement_always_comes_before_the_next_deal(tmp_path, game):
    clock = FakeClock()
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"), seed=8, clock=clock)
    outbox = world.adapter.outbox
    try:
        await world.say(ANN, "/start", chat_id=ANN)
        await world.say(ANN, f"/new {game}")
        await world.say(ANN, f"/settings max_hands {HANDS}")
        await world.say(ANN, "/leave")
        for _ in range(4):
            await world.say(ANN, "/addbot")
        await world.say(ANN, "/start")
        table = world.manager.tables[world.key()]
        while table.state != "closed":  # the AI players deal and play on by themselves
            if table.state == "playing":
                await ai_move(world, table, clock)
            else:
                clock.advance(1)
                await world.settle()
        await eventually(
            lambda: outbox.paced_out() and outbox.idle(), 60.0, 0.02, "every group call made"
        )
        calls = [(c.method, text_of(c)) for c in world.group_calls() if c.method != "deleteMessage"]
        assert sum(method == "sendPhoto" for method, _ in calls) == table.hand_number
        assert table.hand_number == HANDS
        assert hands_out_of_order(calls) == []
    finally:
        await world.close()
