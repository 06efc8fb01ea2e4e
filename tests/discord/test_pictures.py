"""Pictures through real discord.py: the hand in the DM and the settlement in the channel
as PNG attachments (multipart) of the same messages as their text."""

from __future__ import annotations

from io import BytesIO
from pathlib import Path

from PIL import Image

from tests.discord.fake_discord import CHANNEL_ID
from tests.discord.world import DiscordWorld
from tests.waiting import eventually, until_closed_and_sent


def uploads(world: DiscordWorld, channel: str) -> list[bytes]:
    return [
        f["data"]
        for c in world.fake.calls
        if c.path.startswith(f"channels/{channel}/") and isinstance(c.body, dict)
        for f in c.body.get("_files", [])
    ]


def png(data: bytes) -> Image.Image:
    image = Image.open(BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image


async def test_the_hand_in_the_dm_and_the_settlement_in_the_channel_are_png_files(
    tmp_path: Path,
):
    world = await DiscordWorld.open(str(tmp_path / "d.sqlite3"))
    try:
        await world.slash("21", "new", game="situan")
        await world.slash("21", "settings", name="max_hands", value="1")
        await world.slash("21", "settings", name="ai_delay", value="0")
        for _ in range(3):
            await world.slash("21", "addbot")
        await world.slash("21", "start")
        key = world.key()
        await eventually(lambda: "21" in world.fake.dm_channels, 10, 0.005, "a DM")
        dm = world.fake.dm_channels["21"]
        await eventually(lambda: bool(uploads(world, dm)), 10, 0.005, "the hand picture")
        await world.slash("21", "auto", on=True)
        await until_closed_and_sent(world.manager, world.adapter.outbox, key)
        assert png(uploads(world, dm)[0]).width > 100
        hand = [m for m in world.fake.channel_messages(dm) if m["attachments"]]
        assert hand and hand[0]["content"], "the text goes with the picture"
        settlement = uploads(world, CHANNEL_ID)
        assert len(settlement) == 1
        png(settlement[0])
    finally:
        await world.close()
