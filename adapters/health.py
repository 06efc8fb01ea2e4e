"""``GET /healthz``: whether the store answers, how many tables are open, and each platform's
connection — on ``BOT_HEALTH_PORT``, and on the webhook's own port in webhook mode (where a
load balancer checks the processes behind it). ``GET /metrics`` (`bot.ops.metrics`) beside it on
``BOT_HEALTH_PORT`` when ``BOT_METRICS=on``.

    200 {"ok": true, "store": "ok", "tables": 3,
         "adapters": {"telegram": {"connected": true, "mode": "polling"},
                      "discord": {"connected": true, "shards": {"0": true}}}}

``GET /readyz``: whether the process takes updates — 503 until its store is open and its
adapters have started (`Health.ready`), 200 after while the store answers; the server
listens before the store is opened, so an orchestrator sees a starting process as not ready
rather than as gone.

``/healthz``'s answer is 503 (``"ok": false``, ``"store": "down"``) when the store does not answer:
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

from adapters.serving import DEFAULT_LIMITS, guarded_app
from bot.ops import metrics

log = logging.getLogger(__name__)

Probe = Callable[[], dict[str, Any]]
"""A platform's connection state: ``{"connected": bool, …}``."""


class Store(Protocol):
    async def schema_version(self) -> int: ...


class Tables(Protocol):
    def table_count(self) -> int: ...


class Health:
    """What ``/healthz`` and ``/readyz`` report: the store, the tables, each platform's probe
    and whether the process has started. ``manager`` and ``db`` may come later (`attach`):
    until they do, the store is reported as not open."""

    def __init__(self, manager: Tables | None = None, db: Store | None = None) -> None:
        self.manager = manager
        self.db = db
        self.adapters: dict[str, Probe] = {}
        self.ready = False
        """Once the store is open and the adapters have started (`/readyz`)."""

    def started(self) -> None:
        """The store is open and the adapters have started: ready to take updates."""
        self.ready = True

    def stopping(self) -> None:
        """Shutting down: take no more updates (a load balancer looks elsewhere)."""
        self.ready = False

    def attach(self, manager: Tables, db: Store) -> None:
        """The open store and the manager of its tables, from now on reported."""
        self.manager, self.db = manager, db

    async def report(self) -> tuple[int, dict[str, Any]]:
        if self.db is None or self.manager is None:
            body = {"ok": False, "store": "not open", "tables": 0, "adapters": {}}
            return 503, body
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

    async def readiness(self, request: web.Request) -> web.Response:
        # Ready means started *and* able to play now: a store that stopped answering makes
        # the process not ready too, so that one check (the image's, a load balancer's)
        # tells both a starting and a broken process from a working one.
        ready = self.ready and (await self.report())[0] == 200
        return web.json_response({"ready": ready}, status=200 if ready else 503)


HEALTH = web.AppKey("health", Health)


def healthz(health: Health) -> Callable[[web.Request], Awaitable[web.Response]]:
    return health.answer


def health_app(health: Health, with_metrics: bool = False) -> web.Application:
    """The health listener's app: ``/healthz``, ``/readyz`` and (``with_metrics``)
    ``/metrics`` — on a port of their own, never the public web table's, so that a flood of
    the public port cannot blind the checks that decide whether to restart the process."""
    app = guarded_app(DEFAULT_LIMITS)
    app[HEALTH] = health
    app.router.add_get("/healthz", health.answer)
    app.router.add_get("/readyz", health.readiness)
    if with_metrics:
        app.router.add_get("/metrics", scrape)
    return app


async def scrape(request: web.Request) -> web.Response:
    """``GET /metrics``: every figure in Prometheus's text format."""
    response = web.Response(body=metrics.scraped())
    response.headers["Content-Type"] = metrics.CONTENT_TYPE
    return response
