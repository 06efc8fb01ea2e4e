"""Issue 11 through the real library against the fake Bot API, for both games: a player on
托管 from the start never times out and the group stays within its budget; every finished
trick or round — the last one too — is shown whole with its winner; a person gets one new
private message when their turn comes."""

from __future__ import annotations

import pytest

from bot.table.hand_views import NOTICE_QUIET_SECONDS
from tests.bot.harness import FakeClock
from tests.live_table import ai_move
from tests.telegram.test_matches import assert_within_budget
from tests.telegram.world import TelegramWorld, typed_move
from tests.trick_lines import expected_tricks, shown_tricks, watch_finished_tricks
from tests.waiting import eventually

ANN = 11
NOTICE = "「Card room」轮到你了"


def group_texts(world: TelegramWorld) -> list[str]:
    return [
        str(c.params.get("text") or c.params.get("caption") or "")
        for c in world.group_calls()
        if c.method != "deleteMessage"
    ]


@pytest.mark.parametrize("game", ["situan", "erqiwang"])
async def test_on_tuoguan_from_the_start_every_trick_shows_whole_within_budget(
    tmp_path, monkeypatch, game
):
    finished = watch_finished_tricks(monkeypatch)
    clock = FakeClock()
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"), seed=8, clock=clock)
    outbox = world.adapter.outbox
    try:
        await world.say(ANN, "/start", chat_id=ANN)
        await world.say(ANN, f"/new {game}")
        await world.say(ANN, "/settings max_hands 1")
        for _ in range(3):
            await world.say(ANN, "/addbot")
        table = world.manager.tables[world.key()]
        await world.say(ANN, "/start")
        await world.say(ANN, "/auto on", chat_id=ANN)
        while table.state == "playing":  # every seat acts by itself, one move at a time
            tricks = len(finished)
            await ai_move(world, table, clock)
            if len(finished) > tricks:  # a trick ended: the group is shown it, as at a table
                # where the AI players' pause (1 s) is shorter than a slot (3 s) but a trick
                # takes four of them (see adapters.pacing)
                await eventually(
                    lambda: outbox.paced_out() and outbox.idle(),
                    30.0,
                    0.005,
                    "the finished trick shown",
                )
        await eventually(
            lambda: outbox.paced_out() and outbox.idle(), 30.0, 0.02, "every group call made"
        )
        texts = group_texts(world)
        assert not [t for t in texts if "超时" in t]  # 托管 is no time-out
        # A hand of 二七王 on 托管 now takes about 20 group calls in all (the posts waiting
        # together go as one, adapters.pacing): the budget under pressure is test_matches' to show.
        assert_within_budget(world, more_than=15)
        shown = shown_tricks(texts)
        expected = expected_tricks(finished, table.seat_names())
        assert len(expected) > 3
        assert shown == expected  # every trick, the last one too, whole and with its winner
    finally:
        await world.close()


@pytest.mark.parametrize("game", ["situan", "erqiwang"])
async def test_a_person_gets_one_new_private_message_per_turn(tmp_path, game):
    clock = FakeClock()
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"), seed=8, clock=clock)
    try:
        await world.say(ANN, "/start", chat_id=ANN)
        await world.say(ANN, f"/new {game}")
        await world.say(ANN, "/settings ai_delay 3")  # the AI players take 9 s in all
        for _ in range(3):
            await world.say(ANN, "/addbot")
        await world.say(ANN, "/start")
        table = world.manager.tables[world.key()]
        turns, expected, acted_at = 0, 0, -1e9
        while turns < 6 and table.state == "playing":
            if table.hand.to_act != 0:
                await ai_move(world, table, clock)
                continue
            await world.settle()
            notices = [
                c
                for c in world.api.calls
                if c.method == "sendMessage"
                and str(c.params.get("chat_id")) == str(ANN)
                and str(c.params.get("text", "")).startswith(NOTICE)
            ]
            turns += 1
            # One new message per turn — unless she acted a moment ago (she won the bidding
            # or the trick and is to act at once): she is looking at the table already.
            expected += clock.now - acted_at >= NOTICE_QUIET_SECONDS
            assert len(notices) == expected, [c.params["text"] for c in notices]
            clock.advance(10)  # she takes her time
            acted_at = clock.now
            await world.say(ANN, typed_move(table), chat_id=ANN)
        assert turns == 6 and expected >= 3
    finally:
        await world.close()


async def test_words_typed_in_a_private_chat_reach_the_table(tmp_path):
    """Through the real library: ``叫分 100`` typed to the bot privately, without a slash, is
    a bid at the player's table."""
    clock = FakeClock()
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"), seed=8, clock=clock)
    try:
        await world.say(ANN, "/start", chat_id=ANN)
        await world.say(ANN, "/new erqiwang")
        for _ in range(3):
            await world.say(ANN, "/addbot")
        await world.say(ANN, "/start")
        table = world.manager.tables[world.key()]
        while table.hand.to_act != 0:
            await ai_move(world, table, clock)
        before = len(table.hand.history)
        await world.say(ANN, "叫分 100", chat_id=ANN)
        assert len(table.hand.history) == before + 1
        assert table.hand.history[-1].to_json() == {"act": "bid", "seat": 0, "points": 100}
    finally:
        await world.close()
