"""A quick table of several platforms on one manager, as adapters/platforms.py wires them:
the Discord world (real discord.py against the fake gateway) with the real Telegram adapter
(python-telegram-bot against the fake Bot API) beside it, each person queued from their own
private chat, then matched by the quick room with ``quick_wait 1`` (issue 54)."""

from __future__ import annotations

import asyncio

from adapters.router import SendRouter
from adapters.telegram.app import TelegramAdapter, TelegramSettings
from adapters.web.door import WebDoor
from bot.hosting.keeping import Sender
from bot.table.state import Table
from tests.bot.harness import FakeClock
from tests.discord.world import DiscordWorld
from tests.telegram.fake_bot_api import FakeBotAPI
from tests.telegram.world import TOKEN


async def telegram_beside(
    world: DiscordWorld, lang: str, web: WebDoor | None = None, **more: Sender
) -> tuple[FakeBotAPI, TelegramAdapter]:
    """The Telegram adapter on the world's manager, started; the manager sends through a
    router to both platforms (and ``more`` routes: the console's)."""
    api = FakeBotAPI()
    settings = TelegramSettings(token=TOKEN, base_url=await api.start())
    telegram = TelegramAdapter(world.manager, world.db, settings, lang, pace_speed=30.0, web=web)
    router = SendRouter()
    router.routes.update({"tg:": telegram.outbox, "dc:": world.adapter.outbox, **more})
    world.manager.send = router
    await telegram.start()
    return api, telegram


async def queued(world: DiscordWorld, who: str) -> None:
    """Until ``who`` waits in a quick queue (their /quick came through their platform)."""
    for _ in range(500):
        if await world.db.queue_entry(who) is not None:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{who} never joined the queue")


async def quick_table_of(world: DiscordWorld, clock: FakeClock, *people: str) -> Table:
    """The one table the quick room opens for ``people`` once each is queued."""
    for who in people:
        await queued(world, who)
    clock.advance(2)
    world.manager.quick.quick_wait = 1.0  # the issue's ``quick_wait 1``
    (chat,) = await world.manager.quick.match()
    return world.manager.tables[chat]
