"""The bot settles the garbage collector once its tables are restored (`bot.hosting.collector`)."""

from __future__ import annotations

import asyncio
import gc

import aiohttp
import pytest

import adapters.platforms as entry
from bot.hosting.collector import OLDER_EVERY, YOUNG_OBJECTS, settle_after_start
from tests.ops.test_healthz import get
from tests.pg_server import free_port


@pytest.fixture
def collector_restored():
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


@pytest.mark.usefixtures("collector_restored")
def test_settling_freezes_what_is_alive_and_collects_less_often():
    kept_alive = [[index] for index in range(1000)]
    gc.unfreeze()
    settle_after_start()
    assert gc.get_threshold() == (YOUNG_OBJECTS, OLDER_EVERY, OLDER_EVERY)
    assert YOUNG_OBJECTS > 700  # less often than CPython's default
    assert gc.get_freeze_count() >= len(kept_alive)
    assert gc.is_tracked(kept_alive[0]) and kept_alive[0] == [0]


async def test_the_bot_settles_the_collector_after_restoring_its_tables(tmp_path, monkeypatch):
    settled: list[int] = []
    monkeypatch.setattr(entry, "settle_after_start", lambda: settled.append(1))
    port = free_port()
    env = {"BOT_HEALTH_PORT": str(port), "BOT_HEALTH_LISTEN": "127.0.0.1"}
    stop = asyncio.Event()
    running = asyncio.create_task(entry.run_platforms(env, str(tmp_path / "c.sqlite3"), "en", stop))
    try:
        # The health port opens before the store; /readyz says 200 once the tables are
        # restored (and the collector settled) — a wait on a condition, not on time.
        for _ in range(1000):
            try:
                status, _ = await get(port, "/readyz")
                if status == 200:
                    break
            except aiohttp.ClientConnectionError:
                pass
            await asyncio.sleep(0.02)
        else:
            pytest.fail("/readyz never said 200")
        assert settled == [1]
    finally:
        stop.set()
        assert await asyncio.wait_for(running, timeout=20) == 0
