"""Whole matches through real python-telegram-bot against the fake Bot API: four users who
act by button presses and typed commands, in a group and in a forum topic."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.table.state import CLOSED
from tests.call_windows import calls_per_window
from tests.telegram.world import (
    GROUP,
    PLAYERS,
    TelegramWorld,
    play_turn,
    wait_for_group_message,
)
from tests.waiting import eventually

BUDGET_WINDOW = 60.0
BUDGET = 20


async def open_and_seat(world: TelegramWorld, game: str, thread: int | None = None) -> str:
    """Everyone has opened the bot; Ann opens a table, the others press Join, Ann starts."""
    for user_id in PLAYERS:
        await world.say(user_id, "/start", chat_id=user_id)
    await world.say(11, f"/new {game}", thread=thread)
    await world.say(11, "/settings max_hands 1", thread=thread)
    await world.settle()
    key = world.key(thread)
    lobby = await wait_for_group_message(world, "/join")
    for user_id in (12, 13, 14):
        answer = await world.press(user_id, lobby, "/join")
        assert not answer.get("text")
    table = world.manager.tables[key]
    assert [s.user for s in table.seats] == [f"tg:u{u}" for u in PLAYERS]
    await world.press(11, lobby, "/start")
    return key


def assert_within_budget(world: TelegramWorld, more_than: int = 20) -> None:
    """Never more than 20 group calls in any 60 s, counted when each call is made (by the
    adapter, on its pacing clock, just before the request) — and every group call the fake
    Bot API received was counted, ``more_than`` of them."""
    group = world.key()
    made = [at for key, at in world.adapter.outbox.group_calls_made if key == group]
    received = world.group_calls()
    assert len(made) == len(received) > more_than
    assert max(calls_per_window(made, BUDGET_WINDOW)) <= BUDGET


async def play_to_the_end(world: TelegramWorld, key: str) -> int:
    table = world.manager.tables[key]
    turns = 0
    while table.state != CLOSED:
        assert turns < 3000
        await play_turn(world, key, by_text=turns % 7 == 3)
        turns += 1
    return turns


def private_holdings(world: TelegramWorld) -> set[str]:
    """Every hand line ever sent privately (the part after the colon of 'Your hand …:')."""
    lines = set()
    for user_id in PLAYERS:
        for call in world.api.calls:
            if str(call.params.get("chat_id")) == str(user_id):
                first = said(call).split("\n")[0]
                if "：" in first and "手牌" in first:
                    lines.add(first.split("：", 1)[1])
    return {line for line in lines if len(line) > 6}


def said(call) -> str:
    """The text of a call: a message's text, or a photo's caption (the private hand)."""
    media = call.params.get("media")
    caption = media.get("caption") if isinstance(media, dict) else call.params.get("caption")
    return str(call.params.get("text") or caption or "")


def assert_no_private_card_in_the_group(world: TelegramWorld) -> None:
    holdings = private_holdings(world)
    assert holdings
    for call in world.group_calls():
        text = str(call.params.get("text", ""))
        assert "手牌" not in text
        for holding in holdings:
            assert holding not in text


@pytest.mark.parametrize("game", ["situan", "erqiwang"])
async def test_a_whole_match_in_a_group_by_buttons_and_typed_commands(tmp_path: Path, game):
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"))
    try:
        key = await open_and_seat(world, game)
        turns = await play_to_the_end(world, key)
        await eventually(lambda: any("本场结束" in m["text"] for m in world.group_messages()))
        assert turns > 20
        assert_within_budget(world)
        assert_no_private_card_in_the_group(world)
    finally:
        await world.close()


async def test_a_whole_match_in_a_forum_topic_posts_every_message_in_that_topic(tmp_path: Path):
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"))
    try:
        key = await open_and_seat(world, "erqiwang", thread=42)
        assert key.endswith(":42") and world.key() not in world.manager.tables
        await play_to_the_end(world, key)
        await eventually(lambda: any("本场结束" in m["text"] for m in world.group_messages()))
        group_sends = world.api.calls_to("sendMessage", chat_id=GROUP)
        assert all(str(c.params.get("message_thread_id")) == "42" for c in group_sends)
        assert_within_budget(world)
    finally:
        await world.close()
