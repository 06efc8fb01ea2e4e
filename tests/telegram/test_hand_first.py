"""Issue 49 (f) through python-telegram-bot against the fake Bot API: the group's budget goes
to the hand first — with four fast people, from the first hand, every 四团 round and every
二七王 trick is shown to the group whole, with its winner, although the lobby (the table
opened, three people joining, settings, the start) spent the group's minute just before the
deal. Pacing runs 30× faster than the wall clock (`tests.telegram.world`)."""

from __future__ import annotations

import asyncio

import pytest

from tests.seen_whole import expected_closings, unseen, watch_finishing_times
from tests.telegram.world import PACE_SPEED, PLAYERS, TelegramWorld, play_turn
from tests.waiting import eventually

LOBBY_PAUSE = 4.0
"""Seconds (pacing time) between two lines typed in the lobby."""


def group_texts(world: TelegramWorld) -> list[tuple[float, str]]:
    return [
        (c.at, str(c.params.get("text") or c.params.get("caption") or ""))
        for c in world.group_calls()
        if c.method != "deleteMessage"
    ]


@pytest.mark.parametrize("game", ["situan", "erqiwang"])
async def test_four_fast_people_see_every_round_of_the_first_hand(tmp_path, monkeypatch, game):
    finished, finished_at = watch_finishing_times(monkeypatch)
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"), seed=8)
    outbox = world.adapter.outbox
    try:
        for user_id in PLAYERS:
            await world.say(user_id, "/start", chat_id=user_id)
        # The lobby at a person's pace, a line every few seconds: each its own post.
        lobby = [(11, f"/new {game}"), (12, "/join"), (13, "/join"), (14, "/join"),
                 (11, "/settings max_hands 1"), (11, "/settings turn_seconds 60"),
                 (11, "/settings ai_delay 1"), (11, "/settings idle_minutes 10"),
                 (12, "/leave"), (12, "/join"), (13, "/leave"), (13, "/join"),
                 (11, "/settings ai_delay 2"), (11, "/settings idle_minutes 20")]  # fmt: skip
        for user_id, text in lobby:
            await world.say(user_id, text)
            await asyncio.sleep(LOBBY_PAUSE / PACE_SPEED)
        await world.say(11, "/start")
        table = world.manager.tables[world.key()]
        while table.state == "playing":
            await play_turn(world, world.key(), by_text=True)
        await eventually(
            lambda: outbox.paced_out() and outbox.idle(), 60.0, 0.02, "every group call made"
        )
        expected = expected_closings(finished, table)
        assert len(expected) > 3
        assert unseen(expected, finished_at, group_texts(world)) == []
    finally:
        await world.close()
