"""Issue 49 (c) through discord.py against the fake gateway + REST server: one ordered stream
per channel — a hand's settlement (its post with the picture) always reaches the channel
before anything of the next hand (its deal line, its table), however far the channel's
budget makes the posts lag behind (four AI players, the tables' clock driven as fast as the
test can move it; the pacing runs 30× faster than the wall clock)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.bot.harness import FakeClock
from tests.discord.fake_discord import CHANNEL_ID
from tests.discord.world import DiscordWorld
from tests.live_table import ai_move
from tests.telegram.test_one_stream import HANDS, hands_out_of_order
from tests.waiting import eventually

ANN = "21"


def channel_posts_and_edits(world: DiscordWorld) -> list[tuple[str, str]]:
    """(method, text) of the channel's calls, a post with a picture named ``sendPhoto`` as
    the Telegram check reads it; an edit without content keeps the text it had."""
    shown: list[tuple[str, str]] = []
    for call in world.fake.calls:
        if not call.path.startswith(f"channels/{CHANNEL_ID}/messages") or call.method == "DELETE":
            continue
        body: dict[str, Any] = call.body if isinstance(call.body, dict) else {}
        if call.method == "POST":
            shown.append(
                ("sendPhoto" if body.get("_files") else "send", str(body.get("content") or ""))
            )
        elif "content" in body:
            shown.append(("edit", str(body["content"] or "")))
    return shown


@pytest.mark.parametrize("game", ["situan", "erqiwang"])
async def test_a_settlement_always_comes_before_the_next_deal(tmp_path, game):
    clock = FakeClock()
    world = await DiscordWorld.open(str(tmp_path / "dc.sqlite3"), seed=8, clock=clock)
    outbox = world.adapter.outbox
    try:
        await world.slash(ANN, "new", game=game)
        await world.slash(ANN, "settings", name="max_hands", value=str(HANDS))
        await world.slash(ANN, "leave")
        for _ in range(4):
            await world.slash(ANN, "addbot")
        await world.slash(ANN, "start")
        table = world.manager.tables[world.key()]
        while table.state != "closed":
            if table.state == "playing":
                await ai_move(world, table, clock)
            else:
                clock.advance(1)
                await world.settle()
        await eventually(
            lambda: outbox.paced_out() and outbox.idle(), 60.0, 0.02, "every channel call made"
        )
        calls = channel_posts_and_edits(world)
        assert sum(method == "sendPhoto" for method, _ in calls) == table.hand_number == HANDS
        assert hands_out_of_order(calls) == []
    finally:
        await world.close()
