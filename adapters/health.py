"""``GET /healthz``: 200 ``{"ok": true, "tables": N}`` while the database answers, 503
``{"ok": false}`` when it does not — on ``BOT_HEALTH_PORT``, and on the webhook's own port in
webhook mode (where a load balancer checks the processes behind it)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from aiohttp import web

from bot.manager import TableManager
from storage import Database

log = logging.getLogger(__name__)


def healthz(
    manager: TableManager, db: Database
) -> Callable[[web.Request], Awaitable[web.Response]]:
    async def answer(request: web.Request) -> web.Response:
        try:
            await db.schema_version()
        except Exception:
            log.warning("healthz: the database does not answer", exc_info=True)
            return web.json_response({"ok": False}, status=503)
        return web.json_response({"ok": True, "tables": manager.table_count()})

    return answer
