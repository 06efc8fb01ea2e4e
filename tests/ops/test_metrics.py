"""``GET /metrics`` scraped while a hand is played on Telegram (the real adapter against the
fake Bot API): the counters move, labelled by platform and game and never by chat; and
``/healthz`` reports the store and the adapter's connection."""

from __future__ import annotations

from typing import Any

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from adapters.health import Health
from adapters.platforms import instrument, start_health
from bot.ops.config import load
from tests.live_table import ai_move
from tests.ops.test_healthz import get
from tests.pg_server import free_port
from tests.telegram.test_live_table import ANN, opened
from tests.telegram.world import GROUP, typed_move
from tests.waiting import eventually

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


async def scrape(port: int) -> Samples:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}/metrics") as response,
    ):
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain; version=")
        text = await response.text()
    samples: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


TELEGRAM_SITUAN = {"platform": "telegram", "game": "situan"}


async def test_metrics_move_during_a_played_hand_and_healthz_reports_the_adapter(tmp_path):
    world, clock = await opened(tmp_path, "situan")
    stop_counting = instrument(world.manager, world.db)
    health = Health(world.manager, world.db)
    health.adapters["telegram"] = world.adapter.connection
    port = free_port()
    env = {"BOT_HEALTH_PORT": str(port), "BOT_HEALTH_LISTEN": "127.0.0.1"}
    runner = await start_health(load(env), health, with_metrics=True)
    assert runner is not None
    try:
        before = await scrape(port)
        table = world.manager.tables[world.key()]
        ann_moves = ai_moves = refusals = 0
        while ann_moves < 2 or ai_moves < 3 or refusals < 1:
            assert table.state == "playing"
            if table.turn_seat == 0:
                clock.advance(3)
                await world.say(ANN, typed_move(table), chat_id=ANN)
                ann_moves += 1
            elif not refusals:
                await world.say(ANN, "/pass")  # in the group, out of turn: refused
                refusals += 1
            else:
                await ai_move(world, table, clock)
                ai_moves += 1
        # The moves' table edits are paced: counted once they have gone out, not before.
        await eventually(world.adapter.outbox.paced_out, 30.0, 0.005, "the paced calls sent")
        await world.settle()
        after = await scrape(port)

        def moved(name: str, **labels: str) -> float:
            return value(after, name, **labels) - value(before, name, **labels)

        assert value(after, "cardbot_tables_open", **TELEGRAM_SITUAN) == 1
        assert moved("cardbot_actions_total", **TELEGRAM_SITUAN) >= ann_moves + ai_moves
        assert moved("cardbot_refusals_total", **TELEGRAM_SITUAN) == refusals
        assert moved("cardbot_group_calls_total", platform="telegram") > 0
        # Every group call passed the group's budget, every message call the bot's send
        # budget, and every call of the library (messages and the rest) its own limiter.
        waits = "cardbot_budget_wait_seconds_count"
        assert moved(waits, platform="telegram", budget="group") > 0
        sent = moved(waits, platform="telegram", budget="bot")
        assert 0 < sent <= moved(waits, platform="telegram", budget="library")
        assert moved("cardbot_ai_decision_seconds_count", game="situan", level="normal") >= 3
        assert moved("cardbot_storage_commit_seconds_count", backend="sqlite") >= ann_moves
        assert moved("cardbot_step_errors_total", **TELEGRAM_SITUAN) == 0
        assert value(after, "process_resident_memory_bytes") > 0
        chats = {dict(labels).get("chat") for _, labels in after}
        assert chats == {None}  # never a label per chat
        shown = {v for _, labels in after for _, v in labels}
        assert not any(str(GROUP) in label for label in shown)

        status, body = await get(port)
        assert status == 200
        assert body == {
            "ok": True,
            "store": "ok",
            "tables": 1,
            "adapters": {"telegram": {"connected": True, "mode": "polling"}},
        }
    finally:
        stop_counting()
        await runner.cleanup()
        await world.close()


async def test_metrics_are_off_unless_asked_for(tmp_path):
    health = Health(Tables(), Store())
    port = free_port()
    env = {"BOT_HEALTH_PORT": str(port), "BOT_HEALTH_LISTEN": "127.0.0.1"}
    runner = await start_health(load(env), health)
    assert runner is not None
    try:
        assert (await get(port, "/metrics"))[0] == 404
        assert (await get(port))[0] == 200
    finally:
        await runner.cleanup()


class Tables:
    def table_count(self) -> int:
        return 0


class Store:
    async def schema_version(self) -> Any:
        return 5
