"""``GET /healthz`` on ``BOT_HEALTH_PORT`` while ``python -m bot`` runs the platforms."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import aiohttp
import pytest

from adapters.health import Health
from adapters.platforms import run_platforms, start_health
from adapters.startup import StartupError
from bot.ops.config import load
from tests.pg_server import free_port


async def get(port: int, path: str = "/healthz") -> tuple[int, Any]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}") as response,
    ):
        body = await response.json() if response.status != 404 else None
        return response.status, body


async def test_healthz_answers_200_with_the_tables_while_the_bot_runs(tmp_path: Path):
    port = free_port()
    env = {"BOT_HEALTH_PORT": str(port), "BOT_HEALTH_LISTEN": "127.0.0.1"}
    stop = asyncio.Event()
    running = asyncio.create_task(run_platforms(env, str(tmp_path / "h.sqlite3"), "en", stop))
    try:
        # The health port opens before the store (an orchestrator sees a starting process
        # as not ready): wait until /readyz says the store is open and the platforms started.
        ready = None
        for _ in range(1000):  # a hang guard only: the loop ends as soon as it is ready
            try:
                ready = await get(port, "/readyz")
            except aiohttp.ClientConnectionError:
                ready = None
            if ready is not None and ready[0] == 200:
                break
            await asyncio.sleep(0.02)
        assert ready == (200, {"ready": True})
        answer = await get(port)
        assert answer == (200, {"ok": True, "store": "ok", "tables": 0, "adapters": {}})
        assert (await get(port, "/other"))[0] == 404
    finally:
        stop.set()
        assert await asyncio.wait_for(running, timeout=20) == 0
    with pytest.raises(aiohttp.ClientConnectionError):  # stopped with the bot
        await get(port)


class Database:
    def __init__(self) -> None:
        self.fails = False

    async def schema_version(self) -> int:
        if self.fails:
            raise OSError("connection refused")
        return 3


async def test_healthz_counts_tables_and_answers_503_when_the_database_does_not():
    port = free_port()
    db = Database()
    manager = SimpleNamespace(table_count=lambda: 2)  # two tables: "tg:-1" and "dc:2"
    env = {"BOT_HEALTH_PORT": str(port), "BOT_HEALTH_LISTEN": "127.0.0.1"}
    health = Health(manager, db)  # type: ignore[arg-type]
    gateway = {"connected": True, "shards": {"0": True}}
    health.adapters["discord"] = lambda: dict(gateway)
    runner = await start_health(load(env), health)
    assert runner is not None
    try:
        adapters = {"discord": {"connected": True, "shards": {"0": True}}}
        assert await get(port) == (
            200,
            {"ok": True, "store": "ok", "tables": 2, "adapters": adapters},
        )
        gateway.update(connected=False, shards={"0": False})  # reported, still healthy
        status, body = await get(port)
        assert status == 200 and body["adapters"]["discord"]["connected"] is False
        db.fails = True
        status, body = await get(port)
        assert status == 503 and (body["ok"], body["store"]) == (False, "down")
    finally:
        await runner.cleanup()


async def test_no_port_no_endpoint_and_a_bad_port_is_a_startup_error():
    health = Health(SimpleNamespace(table_count=lambda: 0), Database())  # type: ignore[arg-type]
    assert await start_health(load({}), health) is None
    with pytest.raises(StartupError, match="BOT_HEALTH_PORT"):
        load({"BOT_HEALTH_PORT": "eighty"})
