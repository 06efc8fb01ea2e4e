"""Issue 38, item 4: an update delivered twice is applied once — a webhook post Telegram
re-sends (it got no timely answer), and a polled batch fetched again after a restart (the bot
was killed before confirming it). Typed commands and match-wide buttons carry no stamp that
would refuse the second copy; the update's id is what tells."""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
from telegram import Update
from telegram.ext import TypeHandler

from adapters.telegram.app import TelegramAdapter, TelegramSettings
from bot.hosting.manager import TableManager
from storage import Database
from tests.telegram.fake_bot_api import FakeBotAPI, text_update, user
from tests.telegram.test_webhook import free_port
from tests.telegram.world import GROUP, PLAYERS, TelegramWorld
from tests.waiting import eventually

SECRET = "s3cret-token"


def ai_seats(manager: TableManager, chat: str) -> int:
    return sum(seat is not None and seat.ai for seat in manager.tables[chat].seats)


class WebhookBot:
    """The real adapter in webhook mode, and a way to post updates to it as Telegram does."""

    def __init__(self, adapter: TelegramAdapter, port: int) -> None:
        self.adapter = adapter
        self.url = f"http://127.0.0.1:{port}/telegram"
        self.handled: set[int] = set()
        self._ids = iter(range(1, 1_000_000))
        adapter.application.add_handler(TypeHandler(Update, self._handled), group=100)

    async def _handled(self, update: Update, context: Any) -> None:
        self.handled.add(update.update_id)

    def update(self, user_id: int, text: str) -> dict[str, Any]:
        update = text_update(user(user_id, PLAYERS[user_id]), GROUP, text)
        update["update_id"] = next(self._ids)
        return update

    async def post(self, update: dict[str, Any]) -> None:
        headers = {"X-Telegram-Bot-Api-Secret-Token": SECRET, "Content-Type": "application/json"}
        async with (
            aiohttp.ClientSession() as session,
            session.post(self.url, data=json.dumps(update), headers=headers) as sent,
        ):
            assert sent.status == 200

    async def handled_through(self, update: dict[str, Any]) -> None:
        """Until ``update`` is handled: a group's updates are handled in the order they came,
        so every one posted before it in the group is done too."""
        await eventually(lambda: update["update_id"] in self.handled, 10.0, 0.005)


@asynccontextmanager
async def webhook_bot(db_path: str) -> AsyncIterator[WebhookBot]:
    api = FakeBotAPI()
    base = await api.start()
    db = await Database.open(db_path)
    port = free_port()
    settings = TelegramSettings(
        token="123:TEST",
        base_url=base,
        webhook_url="https://cards.example/telegram",
        webhook_listen="127.0.0.1",
        webhook_port=port,
        webhook_secret=SECRET,
    )
    manager = TableManager(db, lambda m: asyncio.sleep(0))
    adapter = TelegramAdapter(manager, db, settings, "zh-Hans", pace_speed=30.0)
    manager.send = adapter.outbox
    await adapter.start()
    try:
        yield WebhookBot(adapter, port)
    finally:
        await adapter.stop()
        await api.stop()
        await db.close()


async def test_the_same_addbot_posted_twice_seats_one_ai(tmp_path):
    async with webhook_bot(str(tmp_path / "wh.sqlite3")) as bot:
        await bot.post(bot.update(11, "/new erqiwang"))
        addbot = bot.update(11, "/addbot")
        await bot.post(addbot)
        await bot.post(copy.deepcopy(addbot))  # Telegram re-sends it: same update_id
        after = bot.update(11, "/rules")
        await bot.post(after)
        await bot.handled_through(after)
        manager = bot.adapter.manager
        assert ai_seats(manager, f"tg:{GROUP}") == 1
        assert bot.adapter.manager.duplicates == 1
        # Another /addbot (a new update) is taken as usual.
        again = bot.update(11, "/addbot")
        await bot.post(again)
        await bot.handled_through(again)
        assert ai_seats(manager, f"tg:{GROUP}") == 2


async def test_the_same_addbot_fetched_again_after_a_restart_seats_one_ai(tmp_path):
    path = str(tmp_path / "tg.sqlite3")
    world = await TelegramWorld.open(path)
    try:
        await world.say(11, "/new erqiwang")
        await world.say(11, "/addbot")
        assert ai_seats(world.manager, world.key()) == 1
        addbot = copy.deepcopy(world.api.updates[-1])
    finally:
        await world.close()
    world = await TelegramWorld.open(path)  # the same file: the bot was restarted
    try:
        assert ai_seats(world.manager, world.key()) == 1
        world.api.redeliver(addbot)  # the batch it never confirmed, fetched again
        await world.say(11, "/rules")  # handled after it (one group's updates keep their order)
        assert ai_seats(world.manager, world.key()) == 1
        assert world.manager.duplicates == 1
    finally:
        await world.close()
