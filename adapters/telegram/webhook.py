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

The server keeps to `adapters.serving.ServerLimits` (a request's headers within 10 s, its body
within 10 s and 512 KiB, 100 connections). A post that is not an update — a body that is not
JSON, JSON that is not an update, an update missing what the bot reads (a message without its
chat) — is answered 400 and never handed on; refusals are logged at most once a minute.
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

from adapters.health import Health, healthz
from adapters.serving import (
    DEFAULT_LIMITS,
    BadJson,
    GuardedRunner,
    RefusalLog,
    ServerLimits,
    guarded_app,
    parse_json,
    read_body,
)
from adapters.startup import StartupError
from adapters.telegram.inbox import message_chat
from adapters.telegram.keyboards import PREFIX, read_callback, user_key
from bot.hosting.manager import TableManager

log = logging.getLogger(__name__)
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
FORWARD_TIMEOUT = 5.0
"""How long the owner of a table may take to take an update forwarded to it."""
RETRY_EVERY = 0.5
"""While a table's owner does not answer, how often to ask again who owns it."""


def well_formed(update: Update) -> bool:
    """Whether ``update`` has, in the right types, what the bot reads of it: the chat of its
    message and the ids of its chat and users. Telegram's own always do; the library builds
    an `Update` from anything shaped like a dict."""
    if not isinstance(update.update_id, int):
        return False
    users = [update.effective_user] if update.effective_user is not None else []
    chats = [update.effective_chat] if update.effective_chat is not None else []
    message = update.effective_message
    if message is not None:
        if message.chat is None:
            return False
        if message.text is not None and not isinstance(message.text, str):
            return False
    query = update.callback_query
    if query is not None and (query.from_user is None or not isinstance(query.data, str | None)):
        return False
    return all(isinstance(user.id, int) for user in users) and all(
        isinstance(chat.id, int) and isinstance(chat.type, str) for chat in chats
    )


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
    if message is None or message.chat is None:
        chat = update.effective_chat
        return (f"{PREFIX}{chat.id}", "", False) if chat is not None else None
    private = message.chat.type == ChatType.PRIVATE
    return message_chat(message), user_key(user.id) if user else "", private


class Webhook:
    """The HTTP server of webhook mode, for one process or several sharing a database."""

    def __init__(
        self,
        application: Application[Any, Any, Any, Any, Any, Any],
        manager: TableManager,
        secret: str,
        listen: str,
        port: int,
        limits: ServerLimits = DEFAULT_LIMITS,
        health: Health | None = None,
    ) -> None:
        self.application = application
        self.manager = manager
        self.secret = secret
        self.listen = listen
        self.port = port
        self.limits = limits
        self.refusals = RefusalLog(log, limits.refusals_every)
        self.health = health
        """What ``/healthz`` reports here (the process's, every platform's; else the store's)."""
        self._runner: GuardedRunner | None = None
        self._session: aiohttp.ClientSession | None = None

    async def start(self) -> None:
        app = guarded_app(self.limits)
        app.router.add_post("/telegram", self._received)
        app.router.add_post("/forwarded", self._forwarded)
        health = self.health or Health(self.manager, self.manager.db)
        app.router.add_get("/healthz", healthz(health))
        self._runner = GuardedRunner(app, self.limits, self.refusals)
        try:
            await self._runner.start(self.listen, self.port)
        except OSError as error:
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

    @property
    def most_connections(self) -> int:
        """The most connections the server has kept at once."""
        return self._runner.most_connections if self._runner is not None else 0

    def _refused(self, request: web.Request, status: int, why: str) -> web.Response:
        self.refusals.refused(f"a post to {request.path} ({status}): {why}")
        return web.Response(status=status)

    async def _read(self, request: web.Request) -> tuple[dict[str, Any], Update] | web.Response:
        """The update posted, or the answer refusing it (never a 500: nothing a client sends
        may raise here)."""
        if not self._authentic(request):
            return self._refused(request, 403, "no secret token, or another")
        try:
            body = await read_body(request, self.limits)
        except web.HTTPException as refusal:
            return self._refused(request, refusal.status, refusal.reason)
        try:
            data = parse_json(body)  # depth-limited: deep nesting is a 400, not a 500
        except BadJson as bad:
            return self._refused(request, 400, str(bad))
        if not isinstance(data, dict):
            return self._refused(request, 400, "not an update")
        try:
            update = Update.de_json(data, self.application.bot)
        except Exception:  # a field of the wrong type, a required one missing: no update
            return self._refused(request, 400, "not an update")
        try:
            placed = well_formed(update)
        except Exception:  # a field of a type the library took as it came
            placed = False
        if not placed:
            return self._refused(request, 400, "not an update the bot can place")
        return data, update

    async def _received(self, request: web.Request) -> web.Response:
        read = await self._read(request)
        if isinstance(read, web.Response):
            return read
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
        read = await self._read(request)
        if isinstance(read, web.Response):
            return read
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
                    log.error(
                        "%s refused an update handed on (%d): do the processes share "
                        "TELEGRAM_WEBHOOK_SECRET?",
                        address,
                        answer.status,
                    )
                    return False
                return None
        except (aiohttp.ClientError, TimeoutError) as error:
            log.warning("forwarding an update to %s failed: %s", address, error)
            return None
