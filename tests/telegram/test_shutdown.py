"""Issue 51, item 6 (the platform half) through python-telegram-bot against the fake Bot API:
stopping the adapter takes under 5 s whatever is queued — group posts waiting for the
group's minute (at its real pace), private messages waiting for the bot-wide budget, and web
watchers' membership checks under way, which end at once (a "no"), so that the web server's
requests waiting on them can finish too."""

from __future__ import annotations

import asyncio
import time

from bot.views.outgoing import Kind, Outgoing
from tests.telegram.world import TelegramWorld

ANN = 11
SHUTDOWN_SECONDS = 5.0


async def test_stopping_with_everything_queued_takes_under_five_seconds(tmp_path):
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"), pace_speed=1.0)
    adapter, outbox = world.adapter, world.adapter.outbox
    chat = world.key()
    opens: list[asyncio.Task[bool]] = []
    try:
        for number in range(60):  # a file each: every post is a call of its own
            outbox.pace(Outgoing(Kind.GROUP, chat, f"post {number}", filename=f"{number}.txt"))
        for number in range(300):
            outbox.send_private(f"tg:u{1000 + number}", f"hello {number}")
        opens = [asyncio.create_task(adapter.is_member(chat, f"tg:u{2000 + n}"))
                 for n in range(40)]  # fmt: skip
        await asyncio.sleep(0.3)  # calls under way, the rest queued
        assert not outbox.paced_out() and not outbox.idle()
        assert not all(task.done() for task in opens)
        began = time.monotonic()
        world._stop.set()
        await asyncio.wait_for(adapter.stop(), timeout=30)
        await asyncio.wait_for(asyncio.gather(*opens, return_exceptions=True), timeout=30)
        took = time.monotonic() - began
        assert took < SHUTDOWN_SECONDS, took
        assert all(task.done() and not task.cancelled() for task in opens)
        assert [task.exception() for task in opens] == [None] * len(opens)
    finally:
        for task in opens:
            task.cancel()
        if world._timers is not None:
            await world._timers
        await world.api.stop()
        await world.db.close()
