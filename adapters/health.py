"""``GET /healthz``: whether the store answers, how many tables are open, and each platform's
connection — on ``BOT_HEALTH_PORT``, and on the webhook's own port in webhook mode (where a
load balancer checks the processes behind it). ``GET /metrics`` (`bot.metrics`) beside it on
``BOT_HEALTH_PORT`` when ``BOT_METRICS=on``.

    200 {"ok": true, "store": "ok", "tables": 3,
         "adapters": {"telegram": {"connected": true, "mode": "polling"},
                      "discord": {"connected": true, "shards": {"0": true}}}}

The answer is 503 (``"ok": false``, ``"store": "down"``) when the store does not answer:
then nothing can be played, and a restart or a failover is what helps. A platform whose
connection is down is reported (``"connected": false``) but does not make the process
unhealthy: its library reconnects by itself, and a restart would only lose the tables'
timers for nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from aiohttp import web

from bot import metrics

log = logging.getLogger(__name__)

Probe = Callable[[], dict[str, Any]]
"""A platform's connection state: ``{"connected": bool, …}``."""


class Store(Protocol):
    async def schema_version(self) -> int: ...


class Tables(Protocol):
    def table_count(self) -> int: ...


class Health:
    """What ``/healthz`` reports: the store, the tables, and each platform's probe."""

    def __init__(self, manager: Tables, db: Store) -> None:
        self.manager = manager
        self.db = db
        self.adapters: dict[str, Probe] = {}

    async def report(self) -> tuple[int, dict[str, Any]]:
        try:
            await self.db.schema_version()
            store = "ok"
        except Exception:
            log.warning("healthz: the database does not answer", exc_info=True)
            store = "down"
        adapters = {name: probe() for name, probe in self.adapters.items()}
        body = {"ok": store == "ok", "store": store, "tables": self.manager.table_count(),
                "adapters": adapters}  # fmt: skip
        return (200 if store == "ok" else 503), body

    async def answer(self, request: web.Request) -> web.Response:
        status, body = await self.report()
        return web.json_response(body, status=status)


def healthz(health: Health) -> Callable[[web.Request], Awaitable[web.Response]]:
    return health.answer


async def scrape(request: web.Request) -> web.Response:
    """``GET /metrics``: every figure in Prometheus's text format."""
    response = web.Response(body=metrics.scraped())
    response.headers["Content-Type"] = metrics.CONTENT_TYPE
    return response
