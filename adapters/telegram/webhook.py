"""Webhook mode: Telegram (or a load balancer in front of several bot processes) posts updates
to ``POST /telegram``; each is handled here, or handed to the process that owns its table.

Only posts carrying the secret token registered with ``setWebhook`` are taken (403 otherwise),
so the processes must share ``TELEGRAM_WEBHOOK_SECRET``. An update belongs where its table is
(`TableManager.forward_address`): a button to the table it names, a group message to the
group's table, a private message to the table where its sender sits. One for another process
is posted on to that process's ``/forwarded``, which handles it without asking again. If the
owner does not answer, it is dying: the update waits until the owner's lease runs out, and is
then handled here — taking the table over. ``GET /healthz`` answers on this port too, for the
load balancer (`adapters.health`).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import time
from typing import Any

import aiohttp
from aiohttp import web
from telegram import Update
from telegram.constants import ChatType
from telegram.ext import Application

from adapters.health import healthz
from adapters.startup import StartupError
from adapters.telegram.inbox import message_chat
from adapters.telegram.keyboards import PREFIX, read_callback, user_key
from bot.manager import TableManager

log = logging.getLogger(__name__)
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
FORWARD_TIMEOUT = 5.0
"""How long the owner of a table may take to take an update forwarded to it."""
RETRY_EVERY = 0.5
"""While a table's owner does not answer, how often to ask again who owns it."""


def update_home(update: Update) -> tuple[str, str, bool] | None:
    """(chat, user, private) of where an update belongs: for a button the table it was made
    for, else the chat it came from; None for an update no table cares about."""
    query = update.callback_query
    if query is not None:
        press = read_callback(query.data)
        if press is None:
            return None
        return press.chat, "", False
    message = update.effective_message
    user = update.effective_user
    if message is None:
        chat = update.effective_chat
        return (f"{PREFIX}{chat.id}", "", False) if chat is not None else None
    private = message.chat.type == ChatType.PRIVATE
    return message_chat(message), user_key(user.id) if user else "", private


class Webhook:
    """The HTTP server of webhook mode, for one process or several sharing a database."""

    def __init__(self, application: Application[Any, Any, Any, Any, Any, Any],
                 manager: TableManager, secret: str, listen: str, port: int) -> None:  # fmt: skip
        self.application = application
        self.manager = manager
        self.secret = secret
        self.listen = listen
        self.port = port
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_post("/telegram", self._received)
        app.router.add_post("/forwarded", self._forwarded)
        app.router.add_get("/healthz", healthz(self.manager, self.manager.db))
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        try:
            await web.TCPSite(self._runner, self.listen, self.port).start()
        except OSError as error:
            await self._runner.cleanup()
            where = f"{self.listen}:{self.port}"
            raise StartupError(f"the webhook cannot listen on {where}: {error}") from error
        self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=FORWARD_TIMEOUT))

    async def stop(self) -> None:
        if self._session is not None:
            await self._session.close()
        if self._runner is not None:
            await self._runner.cleanup()

    def _authentic(self, request: web.Request) -> bool:
        given = request.headers.get(SECRET_HEADER, "")
        return hmac.compare_digest(given.encode(), self.secret.encode())

    async def _read(self, request: web.Request) -> tuple[dict[str, Any], Update] | None:
        try:
            data = await request.json()
            return data, Update.de_json(data, self.application.bot)
        except Exception:  # not an update at all (a list, a number, a broken field): 400
            return None

    async def _received(self, request: web.Request) -> web.Response:
        if not self._authentic(request):
            return web.Response(status=403)
        read = await self._read(request)
        if read is None:
            return web.Response(status=400)
        data, update = read
        home = update_home(update)
        ownership = self.manager.ownership
        deadline = time.monotonic() + (ownership.seconds if ownership else 0.0) + RETRY_EVERY
        while home is not None:
            address = await self.manager.forward_address(*home)
            if address is None:
                break
            handed = await self._forward(address, data)
            if handed is not None:
                if handed:
                    return web.Response()
                break  # the owner refused it: a mistake in the set-up, logged; handled here
            if time.monotonic() >= deadline:
                break  # the owner never answered: its lease has run out; take the table
            await asyncio.sleep(RETRY_EVERY)
        await self.application.update_queue.put(update)
        return web.Response()

    async def _forwarded(self, request: web.Request) -> web.Response:
        """An update another process found to be this one's: handled here, never sent on (if
        the table moved meanwhile, its command is refused with a 'try again')."""
        if not self._authentic(request):
            return web.Response(status=403)
        read = await self._read(request)
        if read is None:
            return web.Response(status=400)
        await self.application.update_queue.put(read[1])
        return web.Response()

    async def _forward(self, address: str, data: dict[str, Any]) -> bool | None:
        """Hand an update to the process at ``address``: True when it took it, False when it
        refused it (a 4xx: another secret, say — no use asking again), None when it did not
        answer or failed (it may be dying: ask again who owns the table)."""
        assert self._session is not None
        headers = {SECRET_HEADER: self.secret, "Content-Type": "application/json"}
        url = address.rstrip("/") + "/forwarded"
        try:
            async with self._session.post(url, data=json.dumps(data), headers=headers) as answer:
                if answer.status == 200:
                    return True
                if 400 <= answer.status < 500:
                    log.error("%s refused an update handed on (%d): do the processes share "
                              "TELEGRAM_WEBHOOK_SECRET?", address, answer.status)  # fmt: skip
                    return False
                return None
        except (aiohttp.ClientError, TimeoutError) as error:
            log.warning("forwarding an update to %s failed: %s", address, error)
            return None
