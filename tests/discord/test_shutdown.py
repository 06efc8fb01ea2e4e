"""Issue 51, item 6 (the platform half) through discord.py against the fake gateway + REST
server: stopping the adapter ends whatever is queued — channel posts waiting for the channel's
budget and direct messages waiting for the bot-wide one are dropped (the restored tables send
fresh views on the next start) — and leaves the outbox idle. How long it takes (under 5 s, the
issue's bound) is a speed a loaded machine stretches, not asserted here (a hang fails at
`HANG`); ``bench/watchers_shutdown.py`` times the Telegram adapter's stop the same way."""

from __future__ import annotations

import asyncio

import discord

from bot.views.outgoing import Kind, Outgoing
from tests.discord.world import DiscordWorld

HANG = 30.0
"""Seconds after which stopping counts as hung."""


async def test_stopping_with_everything_queued_ends_it_and_leaves_nothing_running(tmp_path):
    world = await DiscordWorld.open(str(tmp_path / "dc.sqlite3"))
    outbox = world.adapter.outbox
    stopped = False
    try:
        chat = world.key()
        for number in range(60):  # a file each: every post is a call of its own
            outbox.pace(Outgoing(Kind.GROUP, chat, f"post {number}", filename=f"{number}.txt"))
        for number in range(300):
            await outbox(Outgoing(Kind.PRIVATE, chat, f"hello {number}", user="dc:u21"))
        await asyncio.sleep(0.1)
        assert not outbox.paced_out() or not outbox.idle()
        world._stop.set()
        await asyncio.wait_for(world.adapter.stop(), timeout=HANG)
        stopped = True
        assert outbox.idle()  # nothing left running
    finally:
        world._stop.set()
        if world._timers is not None:
            await world._timers
        if not stopped:
            await world.adapter.stop()
        await world.fake.stop()
        await world.db.close()
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = world._saved
