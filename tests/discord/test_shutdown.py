"""Issue 51, item 6 (the platform half) through discord.py against the fake gateway + REST
server: stopping the adapter takes under 5 s whatever is queued — channel posts waiting for
the channel's budget and direct messages waiting for the bot-wide one are dropped (the
restored tables send fresh views on the next start)."""

from __future__ import annotations

import asyncio
import time

import discord

from bot.views.outgoing import Kind, Outgoing
from tests.discord.world import DiscordWorld

SHUTDOWN_SECONDS = 5.0


async def test_stopping_with_everything_queued_takes_under_five_seconds(tmp_path):
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
        began = time.monotonic()
        world._stop.set()
        await asyncio.wait_for(world.adapter.stop(), timeout=30)
        stopped = True
        took = time.monotonic() - began
        assert took < SHUTDOWN_SECONDS, took
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
