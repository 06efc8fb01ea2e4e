"""Issue 55, item 4 on Discord, through the real discord.py against the fake gateway: /replay
answers the asker alone with a link to the replay page of their last hand (by its id), signed
for them (their seat at that table), the token after "#"."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from adapters.web.auth import LinkSigner
from adapters.web.door import WebDoor
from tests.bot.harness import FakeClock
from tests.discord.test_web_link import BASE, link_of
from tests.discord.world import TIMER_STEP, DiscordWorld
from tests.waiting import eventually


async def test_replay_answers_the_asker_alone_with_a_link_signed_for_them(tmp_path: Path):
    signer = LinkSigner()
    world = await DiscordWorld.open(str(tmp_path / "dc.sqlite3"), web=WebDoor(BASE, signer))
    try:
        await world.slash("21", "new", game="situan")
        await world.slash("21", "settings", name="ai_delay", value="0")
        for _ in range(3):
            await world.slash("21", "addbot")
        await world.slash("21", "start")
        await world.slash("21", "auto", on="on")
        key = world.key()
        table = world.manager.tables[key]
        await eventually(
            lambda: table.hand is not None and table.hand.over, 60.0, 0.05, "the hand settled"
        )
        answer = await world.slash("21", "replay")
        assert answer[0]["data"]["flags"] & 64  # ephemeral: the asker alone sees it
        url = link_of(answer[0])
        (hand_id,) = await world.manager.db.hands_played("dc:u21", 5)
        assert url.startswith(f"{BASE}/replay?id={hand_id}#")
        visitor = signer.check(url.split("#", 1)[1])
        assert (visitor.user, visitor.chat, visitor.seat) == ("dc:u21", key, 0)
    finally:
        await world.close()


async def test_a_practice_settlements_replay_is_clicked_in_the_dm(tmp_path: Path):
    """A practice table lives in the player's DM: its settlement's Replay, clicked there,
    answers with a link to that hand signed for the player at that DM's table."""
    signer, clock = LinkSigner(), FakeClock()
    world = await DiscordWorld.open(
        str(tmp_path / "dc.sqlite3"), web=WebDoor(BASE, signer), clock=clock
    )
    try:
        await world.slash("21", "practice", channel_id=None, game="situan")
        await world.slash("21", "auto", channel_id=None, on="on")
        dm = world.fake.dm_channels["21"]

        def settlement() -> dict[str, Any] | None:
            found = [
                m for m in world.fake.messages.values() if m["channel_id"] == dm and replay_of(m)
            ]
            return found[-1] if found else None

        for _ in range(5000):  # each AI pause, then the timers' next look
            if settlement() is not None:
                break
            clock.advance(1.0)
            await asyncio.sleep(TIMER_STEP)
        message = settlement()
        assert message is not None, "the settlement never came"
        (answer,) = await world.click("21", message, replay_of(message)[0])
        url = link_of(answer)
        ((hand_id, _),) = await world.manager.db.hands_numbered(world.key(dm), 1)
        assert url.startswith(f"{BASE}/replay?id={hand_id}#")
        visitor = signer.check(url.split("#", 1)[1])
        assert (visitor.user, visitor.chat) == ("dc:u21", world.key(dm))
    finally:
        await world.close()


def replay_of(message: dict[str, Any]) -> list[str]:
    """The command of a message's Replay button (``/replay TAG.N``)."""
    return [
        component["custom_id"].split("|")[-1]
        for row in message.get("components", [])
        for component in row["components"]
        if component.get("custom_id", "").split("|")[-1].startswith("/replay ")
    ]
