"""Issue 49, item 7 on Discord (discord.py against the fake Discord API): a refusal to a
non-player is said to them alone — the answer to their slash command is its ephemeral
response, and nothing of it is posted in the channel (`tests/telegram/test_answer_alone.py`
is the Telegram side)."""

from __future__ import annotations

from typing import Any

from tests.discord.fake_discord import CHANNEL_ID
from tests.discord.world import DiscordWorld
from tests.waiting import eventually

ANN, EVE = "21", "25"
REFUSAL = "你在这桌没有座位。"
EPHEMERAL = 64


def text_of(body: dict[str, Any]) -> str:
    data = body.get("data") or body
    return str(data.get("content") or "")


def flags_of(body: dict[str, Any]) -> int:
    data = body.get("data") or body
    return int(data.get("flags") or 0)


async def test_a_non_players_refusal_is_their_ephemeral_answer(tmp_path):
    world = await DiscordWorld.open(str(tmp_path / "dc.sqlite3"), closed_dms={EVE})
    outbox = world.adapter.outbox
    try:
        await world.slash(ANN, "new", game="erqiwang")
        for _ in range(3):
            await world.slash(ANN, "addbot")
        await world.slash(ANN, "start")
        answers = await world.slash(EVE, "pass")
        await eventually(lambda: outbox.paced_out() and outbox.idle(), 30.0, 0.005, "all sent")
        channel = world.fake.channel_messages(CHANNEL_ID)
        said = [b for b in answers if REFUSAL in text_of(b)]
        said += [m for m in channel if REFUSAL in str(m["content"])]
        assert said, answers  # answered: as the interaction's response, or its follow-up
        assert [flags_of(m) & EPHEMERAL for m in said] == [EPHEMERAL] * len(said), said
    finally:
        await world.close()
