"""Issue 49 (f) through discord.py against the fake gateway + REST server: with four fast
members, from the first hand, every 四团 round and every 二七王 trick is shown to the channel
whole, with its winner (`tests.seen_whole`), after a lobby that talked for a minute. Pacing
runs 30× faster than the wall clock (`tests.discord.world`)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.discord.fake_discord import CHANNEL_ID
from tests.discord.test_discord import actor, lobby_message
from tests.discord.world import PACE_SPEED, DiscordWorld
from tests.seen_whole import expected_closings, unseen, watch_finishing_times
from tests.telegram.world import typed_move
from tests.waiting import eventually

LOBBY_PAUSE = 4.0
"""Seconds (pacing time) between two lines said in the lobby."""


def channel_texts(world: DiscordWorld) -> list[tuple[float, str]]:
    """(when, text) of each post or edit in the channel; an edit without content keeps its
    text."""
    shown = []
    for call in world.fake.calls:
        if not call.path.startswith(f"channels/{CHANNEL_ID}/messages") or call.method == "DELETE":
            continue
        body: dict[str, Any] = call.body if isinstance(call.body, dict) else {}
        if "content" in body:
            shown.append((call.at, str(body["content"] or "")))
    return shown


async def slash_move(world: DiscordWorld, key: str) -> None:
    """The move `typed_move` would type, as the member's slash command in their DM."""
    table = world.manager.tables[key]
    name, _, rest = typed_move(table).removeprefix("/").partition(" ")
    field = {
        "play": "cards",
        "bury": "cards",
        "bid": "points",
        "trump": "suit",
        "reveal": "whose",
    }.get(name)
    options: dict[str, Any] = {}
    if field is not None:
        options[field] = int(rest) if name == "bid" else rest
    assert await world.slash(actor(world, key), name, channel_id=None, **options), name


@pytest.mark.parametrize("game", ["situan", "erqiwang"])
async def test_four_fast_members_see_every_round_of_the_first_hand(tmp_path, monkeypatch, game):
    finished, finished_at = watch_finishing_times(monkeypatch)
    world = await DiscordWorld.open(str(tmp_path / "dc.sqlite3"), seed=8)
    outbox = world.adapter.outbox
    try:
        await world.slash("21", "new", game=game)
        lobby = await lobby_message(world, CHANNEL_ID)
        for member in ("22", "23", "24"):
            await asyncio.sleep(LOBBY_PAUSE / PACE_SPEED)
            await world.click(member, lobby, "/join")
        for name, value in (
            ("max_hands", "1"),
            ("turn_seconds", "60"),
            ("ai_delay", "1"),
            ("idle_minutes", "10"),
            ("ai_delay", "2"),
        ):
            await asyncio.sleep(LOBBY_PAUSE / PACE_SPEED)
            await world.slash("21", "settings", name=name, value=value)
        await world.click("21", lobby, "/start")
        key = world.key()
        table = world.manager.tables[key]
        while table.state == "playing":
            await slash_move(world, key)
        await eventually(
            lambda: outbox.paced_out() and outbox.idle(), 60.0, 0.02, "every channel call made"
        )
        expected = expected_closings(finished, table)
        assert len(expected) > 3
        assert unseen(expected, finished_at, channel_texts(world)) == []
    finally:
        await world.close()
