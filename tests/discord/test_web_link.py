"""The web table's door on Discord, through the real discord.py against the fake gateway: with
the web table served, the channel's table carries "Open table"; a press answers the presser
alone with a link signed for them — their seat's view if they sit there, the public view for
another member of the channel — and a press naming another channel opens nothing."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from adapters.web.auth import WATCH, LinkSigner
from adapters.web.door import WebDoor
from tests.discord.fake_discord import CHANNEL_ID
from tests.discord.test_discord import seated
from tests.discord.world import DiscordWorld
from tests.waiting import eventually

BASE = "https://cards.example"


def web_button(message: dict[str, Any]) -> dict[str, Any] | None:
    for row in message.get("components", []):
        for component in row["components"]:
            if component.get("custom_id", "").startswith("web|"):
                return component
    return None


def link_of(answer: dict[str, Any]) -> str:
    """The URL of the link button of an interaction's answer."""
    data = answer["data"]
    return next(c["url"] for row in data["components"] for c in row["components"] if "url" in c)


async def test_open_table_answers_each_member_with_a_link_signed_for_them(tmp_path: Path):
    signer = LinkSigner()
    world = await DiscordWorld.open(str(tmp_path / "dc.sqlite3"), web=WebDoor(BASE, signer))
    try:
        key = await seated(world, "situan")
        table = world.manager.tables[key]

        def the_table() -> dict[str, Any] | None:
            shown = [m for m in world.fake.channel_messages(CHANNEL_ID) if web_button(m)]
            return shown[-1] if shown else None

        await eventually(lambda: the_table() is not None, 10.0, 0.01, "Open table")
        message = the_table()
        assert message is not None
        button = web_button(message)
        assert button is not None and button["label"] == "打开牌桌"

        answer = await world._component("22", message, button["custom_id"], 2, None)
        assert answer[0]["data"]["flags"] & 64  # ephemeral: the presser alone sees it
        assert "座位" in answer[0]["data"]["content"]
        url = link_of(answer[0])
        assert url.startswith(f"{BASE}/table#")  # the token after "#": never in a server log
        visitor = signer.check(url.split("#", 1)[1])
        assert (visitor.user, visitor.chat, visitor.seat) == (
            "dc:u22",
            key,
            table.seat_of("dc:u22"),
        )

        watching = await world._component("25", message, button["custom_id"], 2, None)
        visitor = signer.check(link_of(watching[0]).split("#", 1)[1])
        assert (visitor.user, visitor.chat, visitor.seat) == ("dc:u25", key, WATCH)

        # A forged press naming another channel's table, from this channel: nothing opens.
        # (discord.py dispatches only a custom id its message holds: the forger's copy.)
        copied = copy.deepcopy(message)
        forged_button = web_button(copied)
        assert forged_button is not None
        forged_button["custom_id"] = "web|999"
        forged = await world._component("22", copied, "web|999", 2, None)
        assert "components" not in forged[0]["data"] or not forged[0]["data"]["components"]
        assert forged[0]["data"]["content"] == "这个按钮无效。"
    finally:
        await world.close()


async def test_without_the_web_table_there_is_no_open_table(tmp_path: Path):
    world = await DiscordWorld.open(str(tmp_path / "dc.sqlite3"))
    try:
        await seated(world, "situan")
        await world.settle()
        assert not any(web_button(m) for m in world.fake.messages.values())
    finally:
        await world.close()
