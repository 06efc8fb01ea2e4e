"""A table's life with real people, through discord.py against the fake gateway + REST
server (issue 49): a table whose only person stops acting deals at most one more hand, pauses
with one channel line and closes after ``idle_minutes``; people who miss a Ready window keep
their seats and the table pauses; a kicked player's hand is retired and they are told
privately. The tables' clock jumps from wake to wake (`tests.presence`)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.bot.harness import FakeClock
from tests.discord.fake_discord import CHANNEL_ID
from tests.discord.test_live_table import channel_steps
from tests.discord.world import MEMBERS, DiscordWorld
from tests.presence import PAUSED, buttons_left, let_time_pass, paused, stale_in_group
from tests.waiting import eventually

ANN, BOB = "21", "22"
PEOPLE = ("21", "22", "23", "24")
AI_NAME = re.compile(r"电脑 \d")


async def a_table(
    tmp_path: Any, game: str, people: tuple[str, ...]
) -> tuple[DiscordWorld, Any, FakeClock]:
    """``people`` at a table of ``game`` (Ann hosts), AI players in the other seats, the
    first hand dealt; AI players and 托管 act at once, ``idle_minutes`` is 1."""
    clock = FakeClock()
    world = await DiscordWorld.open(str(tmp_path / "dc.sqlite3"), seed=8, clock=clock)
    make = world.fake._message

    def remembering(channel_id: str, body: dict[str, Any], flags: int = 0) -> dict[str, Any]:
        message = make(channel_id, body, flags)  # every message remembers its id in its call
        body["_id"] = message["id"]
        return message

    world.fake._message = remembering  # type: ignore[method-assign]
    await world.slash(ANN, "new", game=game)
    for user in people[1:]:
        await world.slash(user, "join")
    for name, value in (("ai_delay", "0"), ("idle_minutes", "1"), ("ready_seconds", "20")):
        await world.slash(ANN, "settings", name=name, value=value)
    for _ in range(4 - len(people)):
        await world.slash(ANN, "addbot")
    await world.slash(ANN, "start")
    return world, world.manager.tables[world.key()], clock


async def quiet(world: DiscordWorld) -> None:
    outbox = world.adapter.outbox
    await eventually(lambda: outbox.paced_out() and outbox.idle(), 30.0, 0.005, "all sent")


def channel(world: DiscordWorld) -> list[dict[str, Any]]:
    return world.fake.channel_messages(CHANNEL_ID)


def pause_posts(world: DiscordWorld) -> list[dict[str, Any]]:
    return [m for m in channel(world) if any(word in m["content"] for word in PAUSED)]


def dms(world: DiscordWorld, user: str) -> list[dict[str, Any]]:
    dm = world.fake.dm_channels.get(user)
    return [] if dm is None else world.fake.channel_messages(dm)


def labels(message: dict[str, Any]) -> list[str]:
    return [
        str(c.get("label") or "")
        for row in message["components"]
        for c in row.get("components", [])
    ]


@pytest.mark.parametrize("game", ["situan", "erqiwang"])
async def test_a_table_whose_only_person_stops_acting_pauses_then_closes(tmp_path, game):
    world, table, clock = await a_table(tmp_path, game, (ANN,))
    try:
        await let_time_pass(world, table, clock, lambda: paused(table) or table.hand_number > 3)
        await quiet(world)
        assert paused(table) and table.hand_number <= 2, table.hand_number
        await eventually(lambda: pause_posts(world), 10.0, 0.01, "the pause post")
        (post,) = pause_posts(world)
        assert labels(post) == ["继续"]
        assert len([m for m in dms(world, ANN) if "暂停" in m["content"]]) == 1
        await let_time_pass(world, table, clock, lambda: False)
        await quiet(world)
        assert table.state == "closed" and table.hand_number <= 2
        last = channel(world)[-1]["content"]
        assert last.startswith("1 分钟没有人回来：本场到此结束。\n本场结束。\n本场积分：")
        assert len(pause_posts(world)) == 1
    finally:
        await world.close()


@pytest.mark.parametrize("game", ["situan", "erqiwang"])
async def test_four_people_who_miss_the_ready_time_keep_their_seats_and_the_table_pauses(
    tmp_path, game
):
    world, table, clock = await a_table(tmp_path, game, PEOPLE)
    try:
        for user in PEOPLE:
            await world.slash(user, "auto", on=True)
        await let_time_pass(world, table, clock, lambda: paused(table))
        await quiet(world)
        assert table.hand_number == 1
        assert [seat.name for seat in table.seats] == [MEMBERS[user] for user in PEOPLE]
        assert not any(seat.ai for seat in table.seats)
        said = [m["content"] for m in channel(world)]
        assert not [text for text in said if "离开牌桌" in text or AI_NAME.search(text)]
        (post,) = pause_posts(world)
        assert "没有人准备下一局" in post["content"]
        await world.click(BOB, post, "/ready")
        assert table.state == "playing" and table.hand_number == 2
    finally:
        await world.close()


@pytest.mark.parametrize("game", ["situan", "erqiwang"])
async def test_a_kicked_player_hand_loses_its_buttons_and_they_are_told_once(tmp_path, game):
    world, table, _ = await a_table(tmp_path, game, (ANN, BOB))
    try:
        hand = world.hand_message(BOB)
        before = len(dms(world, BOB))
        await world.slash(ANN, "kick", seat=2)
        await quiet(world)
        shown = {m["id"]: m for m in dms(world, BOB)}
        assert not shown[hand["id"]]["components"]  # retired in place
        assert not [m for m in shown.values() if m["components"]]
        new = [m["content"] for m in list(shown.values())[before:]]
        assert len(new) == 1 and new[0].startswith("Ann 把你请离了「") and "2 号座位" in new[0]
        assert table.seats[1] is not None and table.seats[1].ai
    finally:
        await world.close()


@pytest.mark.parametrize("game", ["situan", "erqiwang"])
async def test_no_button_of_a_past_phase_stays_live(tmp_path, game):
    """The lobby, hands, a missed Ready, a pause, Continue, /stop: after each of the
    channel's calls no live button but the table's and the phase's post's, no time-out line
    as a post; at the end, no live button at all."""
    world, table, clock = await a_table(tmp_path, game, (ANN, BOB))
    try:
        await world.slash(ANN, "auto", on=True)  # Ann plays hand 1 on 托管; Bob times out
        await let_time_pass(world, table, clock, lambda: table.state == "between")
        await quiet(world)
        settled = [
            m
            for m in channel(world)
            if any(
                c.get("custom_id", "").endswith("|/ready")
                for row in m["components"]
                for c in row["components"]
            )
        ]
        await world.click(BOB, settled[-1], "/ready")  # Ann misses the ready time
        await let_time_pass(world, table, clock, lambda: table.hand_number == 2)
        await let_time_pass(world, table, clock, lambda: paused(table))  # nobody plays
        await quiet(world)
        (post,) = pause_posts(world)
        await world.click(ANN, post, "/ready")
        assert table.hand_number == 3
        await world.slash(ANN, "stop")
        await quiet(world)
        calls = channel_steps(world)
        assert stale_in_group(calls) is None, stale_in_group(calls)
        assert buttons_left(calls) == []
    finally:
        await world.close()
