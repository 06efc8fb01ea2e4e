"""Issue 49, item 4 through python-telegram-bot against the fake Bot API: the lobby's answers
in a group are batched — three AI players added a second apart are one post, not three —
and the lobby never spends more than half the group's minute, so a hand that starts has its
budget."""

from __future__ import annotations

import asyncio

from tests.call_windows import calls_per_window
from tests.telegram.world import TelegramWorld
from tests.waiting import eventually

ANN = 11
SEATED = "电脑玩家（普通）坐在"
SPEED = 2.0
TALK_SPEED = 10.0
"""Pacing speeds against the wall clock here (the tests' 30x would let a busy machine's slow
command span a whole lobby slot)."""


async def test_three_ai_players_added_a_second_apart_are_one_post(tmp_path):
    # Pacing at twice the wall clock's speed (not 30x): the lobby's 6 s are 3 s here, far
    # more than three commands take even on a busy machine.
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"), pace_speed=SPEED)
    outbox = world.adapter.outbox
    try:
        await world.say(ANN, "/start", chat_id=ANN)
        await world.say(ANN, "/new situan")
        for _ in range(3):
            await asyncio.sleep(1.0 / SPEED)  # a second apart, in pacing time
            await world.say(ANN, "/addbot")
        await eventually(
            lambda: outbox.paced_out() and outbox.idle(), 30.0, 0.01, "every group call made"
        )
        texts = [
            str(c.params.get("text", "")) for c in world.group_calls() if c.method == "sendMessage"
        ]
        posts = [text for text in texts if SEATED in text]
        assert len(posts) == 1, posts
        assert posts[0].count(SEATED) == 3
    finally:
        await world.close()


async def test_a_lobby_that_talks_for_a_minute_spends_half_the_groups_budget(tmp_path):
    """Four people come and go and change settings for a minute, a line every 2 s: the
    group's posts and the deletions of the typed commands take at most 10 calls in any
    60 s (the budget is 20), and every line reaches the group."""
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"), pace_speed=TALK_SPEED)
    outbox = world.adapter.outbox
    try:
        for user_id in (11, 12, 13, 14):
            await world.say(user_id, "/start", chat_id=user_id)
        await world.say(11, "/new situan")
        start = len(world.api.calls)
        made_before = len(outbox.group_calls_made)
        lines = [(12, "/join"), (12, "/leave")] * 15
        for user_id, text in lines:
            await world.say(user_id, text)
            await asyncio.sleep(2.0 / TALK_SPEED)
        await eventually(
            lambda: outbox.paced_out() and outbox.idle(), 30.0, 0.01, "every group call made"
        )
        calls = [c for c in world.group_calls() if c in world.api.calls[start:]]
        made = [at for chat, at in list(outbox.group_calls_made)[made_before:]]
        assert max(calls_per_window(made, 61.0)) <= 10  # counted when made, as the budget
        said = "\n".join(str(c.params.get("text", "")) for c in calls)
        assert said.count("Bob 坐在") == 15 and said.count("Bob 离开了牌桌") == 15
    finally:
        await world.close()
