"""Webhook mode with two processes (here two adapters and managers in one test, on one
PostgreSQL database and the fake Bot API): an update reaching the process that does not own
its table is handed to the owner; with the owner gone, it waits out the lease and is handled
by the process that received it, which takes the table over."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import aiohttp
import pytest

from adapters.startup import StartupError
from adapters.telegram.app import TelegramAdapter, TelegramSettings
from bot.hosting.manager import TableManager
from bot.hosting.quick_reach import EVERYONE, Reach
from bot.hosting.table_leases import Ownership
from storage import Database
from tests.pg_server import free_port
from tests.telegram.fake_bot_api import FakeBotAPI, text_update, user

SECRET = "shared-secret"
GROUP = -100777
CHAT = f"tg:{GROUP}"
ANN = user(11, "Ann", "en")
LEASE = 3.0
"""The processes' lease: what an update for a gone owner's table waits out."""
LONG_LEASE = 60.0
"""A lease no answer waits out unless it waits for the lease: "answered at once" is told
from "waited for the lease" by far more than any load stretches the answer."""


class Process:
    def __init__(
        self,
        name: str,
        base: str,
        db: Database,
        secret: str = SECRET,
        lease: float = LEASE,
        reach: Reach = EVERYONE,
    ) -> None:
        self.secret = secret
        self.port = free_port()
        peer = f"http://127.0.0.1:{self.port}"
        self.manager = TableManager(
            db,
            lambda m: asyncio.sleep(0),
            ownership=Ownership(name, peer, seconds=lease),
            reach=reach,
        )
        settings = TelegramSettings(
            token="123:TEST",
            base_url=base,
            webhook_url="https://cards.example/telegram",
            webhook_listen="127.0.0.1",
            webhook_port=self.port,
            webhook_secret=secret,
        )
        self.adapter = TelegramAdapter(self.manager, db, settings, "en")
        self.manager.send = self.adapter.outbox

    async def post(
        self, text: str, number: int, sender: dict[str, Any] = ANN, chat: int = GROUP
    ) -> float:
        """Post a message (a group's, or ``chat``'s) to this process, as the load balancer
        would; seconds taken."""
        update = {**text_update(sender, chat, text), "update_id": number}
        started = time.monotonic()
        assert await self.post_raw(update) == 200
        return time.monotonic() - started

    async def post_raw(self, body: object) -> int:
        headers = {"X-Telegram-Bot-Api-Secret-Token": self.secret}
        async with aiohttp.ClientSession() as session:
            url = f"http://127.0.0.1:{self.port}/telegram"
            async with session.post(url, json=body, headers=headers) as answer:
                return answer.status


async def until(condition, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "never happened"
        await asyncio.sleep(0.02)


def seats(process: Process) -> int:
    table = process.manager.tables.get(CHAT)
    return 0 if table is None else sum(seat is not None for seat in table.seats)


async def test_an_update_for_another_processes_table_is_handled_by_its_owner(postgres_server):
    api = FakeBotAPI()
    base = await api.start()
    address = postgres_server.database()
    a = Process("a", base, await Database.open(address))
    b = Process("b", base, await Database.open(address))
    await a.adapter.start()
    await b.adapter.start()
    try:
        await a.post("/new situan", 1)
        await until(lambda: seats(a) == 1)
        await b.post("/addbot", 2)  # reaches b; a owns the table: b hands it to a
        await until(lambda: seats(a) == 2)
        assert CHAT not in b.manager.tables
        await a.adapter.stop()  # a is gone: its webhook does not answer, its lease runs out
        expires = (await b.manager.db.leases_of([CHAT], time.time()))[CHAT].expires
        await b.post("/addbot", 3)
        await until(lambda: seats(b) == 3)  # b waited out the lease, took the table, added
        # Not before the lease ran out (how soon after is a speed: the failover test prints it).
        assert time.time() >= expires
        assert b.manager.held == {CHAT}
    finally:
        await b.adapter.stop()
        await api.stop()
        await a.manager.db.close()
        await b.manager.db.close()


async def test_an_owner_that_refuses_a_handed_update_is_not_waited_for(postgres_server):
    """b was given another secret by mistake: a refuses what b hands it (403), and b says so
    in its log and answers at once, rather than waiting for a lease that never runs out;
    the command is refused with a 'try again', changing nothing. Bad input is a 400."""
    api = FakeBotAPI()
    base = await api.start()
    address = postgres_server.database()
    a = Process("a", base, await Database.open(address), lease=LONG_LEASE)
    b = Process("b", base, await Database.open(address), secret="another-secret", lease=LONG_LEASE)
    await a.adapter.start()
    await b.adapter.start()
    try:
        await a.post("/new situan", 1)
        await until(lambda: seats(a) == 1)
        waited = await b.post("/addbot", 2)
        assert waited < LONG_LEASE  # answered once refused, not when the lease ran out
        await asyncio.sleep(0.3)
        assert seats(a) == 1 and CHAT not in b.manager.tables
        for body in ([1, 2], 7, {"message": 5}, {}):
            assert await b.post_raw(body) == 400
    finally:
        await a.adapter.stop()
        await b.adapter.stop()
        await api.stop()
        await a.manager.db.close()
        await b.manager.db.close()


async def test_sharing_the_database_needs_an_address_for_handed_updates(postgres_server):
    api = FakeBotAPI()
    base = await api.start()
    db = await Database.open(postgres_server.database())
    manager = TableManager(db, lambda m: asyncio.sleep(0), ownership=Ownership("a"))
    settings = TelegramSettings(
        token="123:TEST",
        base_url=base,
        webhook_url="https://cards.example/telegram",
        webhook_listen="127.0.0.1",
        webhook_port=free_port(),
        webhook_secret=SECRET,
    )
    adapter = TelegramAdapter(manager, db, settings, "en")
    try:
        with pytest.raises(StartupError, match="BOT_PEER_URL"):
            await adapter.start()
    finally:
        await adapter.stop()
        await api.stop()
        await db.close()
