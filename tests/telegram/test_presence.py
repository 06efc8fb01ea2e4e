"""A table's life with real people, through python-telegram-bot against the fake Bot API
(issue 49): it stops when nobody is there — a table whose only person stops acting deals at
most one more hand, pauses with one group line and closes after ``idle_minutes``; people who
miss a Ready window keep their seats and the table pauses, no AI player takes them — and a
kicked player's hand is retired and they are told privately.

The tables' clock is a `FakeClock` the test jumps from wake to wake (`tests.presence`); the
group's pacing runs on the event loop's clock, 30× faster (`tests.telegram.world`)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.bot.harness import FakeClock
from tests.presence import PAUSED, buttons_left, let_time_pass, paused, stale_in_group
from tests.telegram.test_live_table import group_steps
from tests.telegram.world import PLAYERS, TelegramWorld, buttons_of
from tests.waiting import eventually

ANN, BOB = 11, 12
AI_NAME = re.compile(r"电脑 \d")


async def quiet(world: TelegramWorld) -> None:
    """Until every group call waiting for its slot is made."""
    outbox = world.adapter.outbox
    await eventually(lambda: outbox.paced_out() and outbox.idle(), 30.0, 0.005, "all sent")


async def a_table(
    tmp_path: Any, game: str, people: tuple[int, ...]
) -> tuple[TelegramWorld, Any, FakeClock]:
    """``people`` at a table of ``game`` (Ann hosts), AI players in the other seats, the
    first hand dealt; AI players and 托管 act at once, ``idle_minutes`` is 1."""
    clock = FakeClock()
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"), seed=8, clock=clock)
    store = world.api._store

    def remembering(chat_id: int, params: dict[str, Any]) -> dict[str, Any]:
        message = store(chat_id, params)  # every message remembers its id in its call
        params["_id"] = message["message_id"]
        return message

    world.api._store = remembering  # type: ignore[method-assign]
    for user in people:
        await world.say(user, "/start", chat_id=user)  # their private chat is open
    await world.say(ANN, f"/new {game}")
    for user in people[1:]:
        await world.say(user, "/join")
    for setting in ("ai_delay 0", "idle_minutes 1", "ready_seconds 20"):
        await world.say(ANN, f"/settings {setting}")
    for _ in range(4 - len(people)):
        await world.say(ANN, "/addbot")
    await world.say(ANN, "/start")
    return world, world.manager.tables[world.key()], clock


def group_texts(world: TelegramWorld) -> list[str]:
    """Every text the bot posted or edited into the group, in order."""
    return [
        str(c.params.get("text") or c.params.get("caption") or "")
        for c in world.group_calls()
        if c.method != "deleteMessage"
    ]


def pause_posts(world: TelegramWorld) -> list[dict[str, Any]]:
    return [m for m in world.group_messages() if any(word in m["text"] for word in PAUSED)]


@pytest.mark.parametrize("game", ["situan", "erqiwang"])
async def test_a_table_whose_only_person_stops_acting_pauses_then_closes(tmp_path, game):
    """Ann never acts: the table plays her time-outs, then 托管, to the end of the hand; it
    deals at most one more hand, then pauses with one group line (a Continue button) and a
    private line to Ann, and closes after ``idle_minutes`` with the match's score."""
    world, table, clock = await a_table(tmp_path, game, (ANN,))
    try:
        await let_time_pass(world, table, clock, lambda: paused(table) or table.hand_number > 3)
        await quiet(world)
        assert paused(table) and table.hand_number <= 2, table.hand_number
        assert table.seats[0] is not None and table.seats[0].name == "Ann"
        await eventually(lambda: pause_posts(world), 10.0, 0.01, "the pause post")
        (post,) = pause_posts(world)
        assert "继续" in post["text"] and [b["text"] for b in buttons_of(post)] == ["继续"]
        told = [m["text"] for m in world.api.chat_messages(ANN) if "暂停" in m["text"]]
        assert len(told) == 1 and "/ready" in told[0]
        await let_time_pass(world, table, clock, lambda: False)
        await quiet(world)
        assert table.state == "closed" and table.hand_number <= 2
        said = group_texts(world)
        # The two posts of the end, sent as one message (`adapters.pacing`).
        assert said[-1].startswith("1 分钟没有人回来：本场到此结束。\n本场结束。\n本场积分：")
        assert len(pause_posts(world)) == 1
    finally:
        await world.close()


@pytest.mark.parametrize("game", ["situan", "erqiwang"])
async def test_four_people_who_miss_the_ready_time_keep_their_seats_and_the_table_pauses(
    tmp_path, game
):
    """Four people play the first hand on 托管 by their own choice; none presses Ready in
    time: nobody is removed, no AI player sits down, the table pauses (one line) and a
    Continue press deals the next hand with the presser playing and the others on 托管."""
    people = tuple(PLAYERS)
    world, table, clock = await a_table(tmp_path, game, people)
    try:
        for user in people:
            await world.say(user, "/auto on")
        await let_time_pass(world, table, clock, lambda: paused(table))
        await quiet(world)
        assert table.hand_number == 1
        assert [seat.name for seat in table.seats] == list(PLAYERS.values())
        assert not any(seat.ai for seat in table.seats)
        said = group_texts(world)
        assert not [text for text in said if "离开牌桌" in text or AI_NAME.search(text)]
        (post,) = pause_posts(world)
        assert "没有人准备下一局" in post["text"]
        for user in people:
            assert [m for m in world.api.chat_messages(user) if "暂停" in m["text"]]
        await world.press(BOB, post, "/ready")
        assert table.state == "playing" and table.hand_number == 2
        await let_time_pass(world, table, clock, lambda: table.turn_count > 0)
        assert table.hand.auto == [True, False, True, True]  # Bob plays; the others are away
    finally:
        await world.close()


@pytest.mark.parametrize("game", ["situan", "erqiwang"])
async def test_a_kicked_player_hand_loses_its_buttons_and_they_are_told_once(tmp_path, game):
    world, table, _ = await a_table(tmp_path, game, (ANN, BOB))
    try:
        before = len(world.api.chat_messages(BOB))
        hand = world.hand_message(BOB)
        assert buttons_of(hand)
        await world.say(ANN, "/kick 2")
        await quiet(world)
        shown = {m["message_id"]: m for m in world.api.chat_messages(BOB)}
        assert not buttons_of(shown[hand["message_id"]])  # retired in place
        assert not [m for m in shown.values() if buttons_of(m)]
        new = list(shown.values())[before:]
        assert [m["text"] for m in new] == [
            "Ann 把你请离了「Card room」的 2 号座位：这一局剩下的由电脑替你打。"
            "从下一局起在那里说 /join 就能坐回来。"
        ]
        assert table.seats[1] is not None and table.seats[1].ai
        assert any("Bob 被请离 2 号座位" in text for text in group_texts(world))
    finally:
        await world.close()


@pytest.mark.parametrize("game", ["situan", "erqiwang"])
async def test_no_button_of_a_past_phase_stays_live(tmp_path, game):
    """A match's whole life — the lobby, hands, a missed Ready, a pause, Continue, /stop —
    and after each of the group's calls no live button but the table's and the phase's
    post's, no time-out line as a post; at the end, no live button at all."""
    world, table, clock = await a_table(tmp_path, game, (ANN, BOB))
    try:
        await world.say(ANN, "/auto on")  # Ann plays hand 1 on 托管; Bob times out
        await let_time_pass(world, table, clock, lambda: table.state == "between")
        await quiet(world)
        settled = [
            m
            for m in world.group_messages()
            if any(b.get("callback_data", "").endswith("/ready") for b in buttons_of(m))
        ]
        await world.press(BOB, settled[-1], "/ready")  # Ann misses the ready time
        await let_time_pass(world, table, clock, lambda: table.hand_number == 2)
        await let_time_pass(world, table, clock, lambda: paused(table))  # nobody plays
        await quiet(world)
        (post,) = pause_posts(world)
        await world.press(ANN, post, "/ready")
        assert table.hand_number == 3
        await world.say(ANN, "/stop")
        await quiet(world)
        calls = group_steps(world)
        assert stale_in_group(calls) is None, stale_in_group(calls)
        assert buttons_left(calls) == []
    finally:
        await world.close()
