"""`python -m bot` with both tokens: one process, one table manager, Telegram and Discord."""

from __future__ import annotations

import asyncio
from pathlib import Path

import discord
import yarl

from adapters.platforms import run_platforms
from tests.discord.fake_discord import CHANNEL_ID, FakeDiscord
from tests.discord.world import MEMBERS, interaction_payload
from tests.telegram.fake_bot_api import FakeBotAPI, text_update, user

GROUP = -100700


async def test_both_tokens_run_both_adapters_over_one_table_manager(tmp_path: Path):
    telegram = FakeBotAPI()
    base = await telegram.start()
    fake_discord = FakeDiscord(users=dict(MEMBERS))
    await fake_discord.start()
    saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    discord.http.Route.BASE = fake_discord.rest_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake_discord.gateway_url)
    env = {"TELEGRAM_BOT_TOKEN": "1:T", "TELEGRAM_API_BASE_URL": base,
           "DISCORD_BOT_TOKEN": "discord-token"}  # fmt: skip
    stop = asyncio.Event()
    running = asyncio.create_task(run_platforms(env, str(tmp_path / "both.sqlite3"), "en", stop))
    try:
        await asyncio.wait_for(fake_discord.ready.wait(), timeout=20)
        for _ in range(200):  # Telegram polls once it has started
            if telegram.calls_to("getUpdates"):
                break
            await asyncio.sleep(0.02)
        telegram.push(text_update(user(11, "Ann", "en"), GROUP, "/new situan"))
        payload = interaction_payload(fake_discord, "700001", "21", CHANNEL_ID, 2)
        game = {"name": "game", "type": 3, "value": "erqiwang"}
        payload["data"] = {"id": "1", "name": "new", "type": 1, "options": [game]}
        await fake_discord.interact(payload)
        for _ in range(300):
            opened_tg = [m for m in telegram.chat_messages(GROUP) if "opened" in m["text"]]
            # The Discord member's locale is zh-CN, the Telegram user's en.
            opened_dc = [
                m
                for m in fake_discord.channel_messages(CHANNEL_ID)
                if "开了一桌二七王" in m["content"]
            ]
            if opened_tg and opened_dc:
                break
            await asyncio.sleep(0.02)
        assert "Situan" in opened_tg[0]["text"] and opened_dc
    finally:
        stop.set()
        assert await asyncio.wait_for(running, timeout=20) == 0
        await telegram.stop()
        await fake_discord.stop()
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved
