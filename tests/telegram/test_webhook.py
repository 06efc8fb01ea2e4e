"""Webhook mode: Telegram posts updates to the bot's own HTTP server, which accepts them only
with the secret token it registered through setWebhook."""

from __future__ import annotations

import asyncio
import json
import socket

import aiohttp

from adapters.telegram.app import TelegramAdapter, TelegramSettings
from bot.manager import TableManager
from storage import Database
from tests.telegram.fake_bot_api import FakeBotAPI, text_update, user


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_webhook_mode_registers_a_secret_and_refuses_posts_without_it(tmp_path):
    api = FakeBotAPI()
    base = await api.start()
    db = await Database.open(str(tmp_path / "wh.sqlite3"))
    port = free_port()
    settings = TelegramSettings(
        token="123:TEST", base_url=base, webhook_url="https://cards.example/telegram",
        webhook_listen="127.0.0.1", webhook_port=port, webhook_secret="s3cret-token",
    )  # fmt: skip
    manager = TableManager(db, lambda m: asyncio.sleep(0))
    adapter = TelegramAdapter(manager, db, settings, "zh-Hans")
    manager.send = adapter.outbox
    await adapter.start()
    try:
        registered = api.calls_to("setWebhook")
        assert registered and registered[-1].params["secret_token"] == "s3cret-token"
        assert registered[-1].params["url"] == "https://cards.example/telegram"
        update = text_update(user(11, "Ann"), 11, "/start")
        update["update_id"] = 1
        url = f"http://127.0.0.1:{port}/telegram"
        async with aiohttp.ClientSession() as session:
            async with session.post(url, json=update) as refused:
                assert refused.status == 403
            headers = {
                "X-Telegram-Bot-Api-Secret-Token": "s3cret-token",
                "Content-Type": "application/json",
            }
            async with session.post(url, data=json.dumps(update), headers=headers) as accepted:
                assert accepted.status == 200
            health = f"http://127.0.0.1:{port}/healthz"  # for a load balancer, on this port
            async with session.get(health) as answer:
                assert answer.status == 200 and await answer.json() == {"ok": True, "tables": 0}
        for _ in range(300):
            if api.chat_messages(11):
                break
            await asyncio.sleep(0.01)
        assert [m["text"] for m in api.chat_messages(11)] == ["你好！你的牌会发到这里。"]
    finally:
        await adapter.stop()
        await api.stop()
        await db.close()
