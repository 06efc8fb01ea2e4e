"""Issue 55, item 4 on Discord, through the real discord.py against the fake gateway: /replay
answers the asker alone with a link to the replay page of their last hand (by its id), signed
for them (their seat at that table), the token after "#"."""

from __future__ import annotations

from pathlib import Path

from adapters.web.auth import LinkSigner
from adapters.web.door import WebDoor
from tests.discord.test_web_link import BASE, link_of
from tests.discord.world import DiscordWorld
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
