"""Issue 51, item 6 (the platform half) through python-telegram-bot against the fake Bot API:
stopping the adapter drops whatever is queued instead of sending it — group posts waiting for
the group's minute (at its real pace), private messages waiting for the bot-wide budget — and
web watchers' membership checks under way end at once (a "no"), so that the web server's
requests waiting on them can finish too. How long stopping takes (under 5 s, the issue's
bound) is a speed, measured by ``bench/watchers_shutdown.py``, not asserted here: a loaded
machine stretches it; what would make it long — sending what waits — is checked instead."""

from __future__ import annotations

import asyncio

from bot.views.outgoing import Kind, Outgoing
from tests.telegram.world import TelegramWorld

ANN = 11
HANG = 30.0
"""Seconds after which stopping counts as hung."""


async def test_stopping_with_everything_queued_drops_it_and_ends_every_check(tmp_path):
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"), pace_speed=1.0)
    adapter, outbox = world.adapter, world.adapter.outbox
    chat = world.key()
    opens: list[asyncio.Task[bool]] = []
    try:
        for number in range(60):  # a file each: every post is a call of its own
            outbox.pace(Outgoing(Kind.GROUP, chat, f"post {number}", filename=f"{number}.txt"))
        for number in range(300):
            outbox.send_private(f"tg:u{1000 + number}", f"hello {number}")
        opens = [asyncio.create_task(adapter.is_member(chat, f"tg:u{2000 + n}")) for n in range(40)]
        await asyncio.sleep(0.3)  # calls under way, the rest queued
        assert not outbox.paced_out() and not outbox.idle()
        assert not all(task.done() for task in opens)
        world._stop.set()
        await asyncio.wait_for(adapter.stop(), timeout=HANG)
        await asyncio.wait_for(asyncio.gather(*opens, return_exceptions=True), timeout=HANG)
        # Dropped, not sent: draining them would take minutes (20 group calls a minute,
        # 30 calls a second bot-wide).
        calls = world.api.calls
        assert sum(str(c.params.get("text", "")).startswith("hello ") for c in calls) < 300
        assert sum(c.method == "sendDocument" for c in calls) < 60  # a file each
        assert all(task.done() and not task.cancelled() for task in opens)
        assert [task.exception() for task in opens] == [None] * len(opens)
    finally:
        for task in opens:
            task.cancel()
        if world._timers is not None:
            await world._timers
        await world.api.stop()
        await world.db.close()
