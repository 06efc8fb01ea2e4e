"""The web table's routes, on the bot's own aiohttp server (`adapters.serving`'s limits):

- ``GET /table``: the page (``/table#<token>`` for a signed link, ``/table?t=<param>`` or a
  direct link for the Telegram Mini App); ``GET /replay``: the replay page; ``GET
  /web/<file>``: their scripts and styles (package data);
- ``GET /table/ws``: the page's WebSocket. Its first message names the visitor
  (``{"type": "hello", "auth": "Link <token>" | "tma <initData>", "table": param}``); then
  the server pushes ``state`` frames after every stored step, answers ``check`` (may these
  cards be played?) with ``verdict``, and runs ``act`` as the player's command, answering
  the player's own refusals as ``said``. A bad credential: a ``denied`` frame (401), closed;
- ``POST /table/api/state|check|act``: the same over HTTP, the credential in the
  ``Authorization`` header — 401 and no data for a bad one;
- ``POST /replay/api``: a hand record (JSON) → every step of it (`bot.web_replay`).

An action is a command like any chat command (`TableManager.handle`): the same refusals in
the player's language, the same storage before sending, the same per-user flood limit. What
it answers goes out through the manager's sender as usual — the group's posts, private
hands — except the acting player's own replies, which their page shows.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any

from aiohttp import WSMsgType, web

from adapters.serving import GuardedRunner, RefusalLog, ServerLimits, guarded_app, read_body
from adapters.web.auth import WATCH, Denied, LinkSigner, Visitor, visitor_of
from adapters.web.pages import Page, Pages, frame
from adapters.web.params import chat_of_param
from bot.commands import Command
from bot.manager import TableManager
from bot.outgoing import Kind
from bot.pictures.bundled import REGULAR_FONT
from bot.web_replay import BadRecord, replay_frames
from bot.web_view import PAGE_COMMANDS, unknown_reader_words

log = logging.getLogger(__name__)
HELLO_SECONDS = 10.0
"""A WebSocket must name its visitor this soon after opening."""
MESSAGE_BYTES = 16 * 1024
"""A page's message is small (a few cards): anything larger closes the socket."""
ARGS_AT_MOST = 64
CHECKS_BURST, CHECKS_RATE = 40.0, 10.0
"""Selection checks per page: a burst (tapping cards fast), then this many a second."""
STATIC = {
    "table.html": "text/html",
    "replay.html": "text/html",
    "table.css": "text/css",
    "table.js": "text/javascript",
    "cards.js": "text/javascript",
    "replay.js": "text/javascript",
}
HEADERS = {
    "Cache-Control": "no-cache",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
    "style-src 'self'; script-src 'self'; base-uri 'none'; form-action 'none'",
}
MayWatch = Callable[[str, str], Awaitable[bool]]
"""Whether a user not seated at the table of a chat may watch it (a member of the group)."""


class NoTable(Exception):
    """The credential is good but its table is gone (its match is over)."""


def static_files() -> dict[str, bytes]:
    folder = resources.files("adapters.web") / "static"
    return {name: (folder / name).read_bytes() for name in STATIC}


class WebTable:
    """The web table of a `TableManager`: its pages and its routes.

    ``bot_token``: the Telegram bot's token, to check Mini Apps' ``initData`` (None: only
    signed links). ``may_watch``: asked whether a Telegram user not seated may watch a
    table (the Telegram adapter answers from the group's members); without it only seated
    players and watch links open a page."""

    def __init__(
        self, manager: TableManager, signer: LinkSigner | None = None,
        bot_token: str | None = None, limits: ServerLimits | None = None,
        init_data_max_age: float | None = None, clock: Callable[[], float] = time.time,
    ) -> None:  # fmt: skip
        self.manager = manager
        self.signer = signer or LinkSigner()
        self.bot_token = bot_token
        self.limits = limits or ServerLimits()
        self.max_age = init_data_max_age
        self.clock = clock
        self.may_watch: MayWatch | None = None
        self.pages = Pages()
        self.files = static_files()
        manager.listen_to_steps(self.pages.step)

    # ----------------------------------------------------------------- who it is

    def visitor(self, authorization: str, table: str | None) -> Visitor:
        chat = chat_of_param(table) if table else None
        kwargs = {} if self.max_age is None else {"max_age": self.max_age}
        return visitor_of(authorization, chat, self.signer, self.bot_token, self.clock(),
                          **kwargs)  # fmt: skip

    async def admit(self, visitor: Visitor) -> int | None:
        """The seat whose view ``visitor`` gets (None: the public view); `Denied` when the
        credential gives no view of this table, `NoTable` when it is gone."""
        manager, chat = self.manager, visitor.chat
        if not manager.has_table(chat):
            raise NoTable(chat)
        seat = manager.seat_at(chat, visitor.user)
        if visitor.seat is not None and visitor.seat != WATCH:
            if seat != visitor.seat:
                raise Denied("not this seat")
            return seat
        if seat is not None or visitor.seat == WATCH:
            return seat
        if self.may_watch is not None and await self.may_watch(chat, visitor.user):
            return None
        raise Denied("not at this table")

    # ----------------------------------------------------------------- what a page asks

    def state(self, visitor: Visitor) -> dict[str, Any] | None:
        return self.manager.page_state(visitor.chat, visitor.user, visitor.lang)

    def check(self, visitor: Visitor, message: dict[str, Any]) -> dict[str, Any]:
        move, cards = message.get("action"), _strings(message.get("cards"))
        if move not in ("play", "bury") or cards is None:
            return {"ok": False, "text": ""}
        ok, text = self.manager.page_verdict(visitor.chat, visitor.user, str(move), cards,
                                             visitor.lang)  # fmt: skip
        return {"ok": ok, "text": text, "cards": cards}

    async def act(self, visitor: Visitor, message: dict[str, Any]) -> list[str]:
        """Run the page's action as its player's command; returns the player's own replies
        (sent to the page, not to the chat), the rest sent as any command's answers are."""
        name, args, stamp = (
            message.get("action"),
            _strings(message.get("args")),
            message.get("stamp"),
        )
        if name not in PAGE_COMMANDS or args is None:
            return []
        if stamp is not None and (not isinstance(stamp, str) or len(stamp) > 64):
            return []
        manager, chat = self.manager, visitor.chat
        command = Command(str(name), tuple(args), visitor.user, manager.name_at(chat, visitor.user),
                          chat, lang=visitor.lang, stamp=stamp)  # fmt: skip
        said = []
        for message_out in await manager.handle(command):
            if message_out.kind == Kind.REPLY and message_out.user == visitor.user:
                said.append(message_out.resolved().text)
            else:
                await manager.send(message_out)
        return said

    # ----------------------------------------------------------------- routes

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/table", self._file("table.html"))
        app.router.add_get("/replay", self._file("replay.html"))
        app.router.add_get("/web/cjk.otf", self._font)
        app.router.add_get("/web/{name}", self._static)
        app.router.add_get("/favicon.ico", self._no_icon)
        app.router.add_get("/table/ws", self._socket)
        app.router.add_post("/table/api/state", self._http_state)
        app.router.add_post("/table/api/check", self._http_check)
        app.router.add_post("/table/api/act", self._http_act)
        app.router.add_post("/replay/api", self._replay)

    def _file(self, name: str) -> Callable[[web.Request], Awaitable[web.Response]]:
        async def answer(request: web.Request) -> web.Response:
            return self._respond(name)

        return answer

    def _respond(self, name: str) -> web.Response:
        return web.Response(body=self.files[name], content_type=STATIC[name], charset="utf-8",
                            headers=HEADERS)  # fmt: skip

    async def _static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in self.files or name.endswith(".html"):
            raise web.HTTPNotFound()
        return self._respond(name)

    async def _font(self, request: web.Request) -> web.FileResponse:
        """The pictures' CJK subset (OFL), for a browser with no Chinese font: the page's
        style asks for it last, for CJK characters only."""
        return web.FileResponse(REGULAR_FONT, headers={"Cache-Control": "max-age=86400"})

    async def _no_icon(self, request: web.Request) -> web.Response:
        return web.Response(status=204)

    async def _http_visitor(self, request: web.Request) -> tuple[Visitor, dict[str, Any]]:
        body = await read_body(request, self.limits)
        try:
            message = json.loads(body) if body else {}
        except ValueError:
            raise web.HTTPBadRequest() from None
        if not isinstance(message, dict):
            raise web.HTTPBadRequest()
        table = message.get("table")
        try:
            visitor = self.visitor(request.headers.get("Authorization", ""),
                                   table if isinstance(table, str) else None)  # fmt: skip
            seat = await self.admit(visitor)
        except Denied:
            raise _unauthorized() from None
        except NoTable:
            raise web.HTTPNotFound() from None
        return Visitor(visitor.user, visitor.chat, seat if seat is not None else WATCH,
                       visitor.lang, visitor.name), message  # fmt: skip

    async def _http_state(self, request: web.Request) -> web.Response:
        visitor, _ = await self._http_visitor(request)
        return web.json_response({"state": self.state(visitor)}, headers=HEADERS)

    async def _http_check(self, request: web.Request) -> web.Response:
        visitor, message = await self._http_visitor(request)
        return web.json_response(self.check(visitor, message), headers=HEADERS)

    async def _http_act(self, request: web.Request) -> web.Response:
        visitor, message = await self._http_visitor(request)
        if visitor.seat == WATCH:
            raise web.HTTPForbidden()
        said = await self.act(visitor, message)
        return web.json_response({"said": said, "state": self.state(visitor)}, headers=HEADERS)

    async def _replay(self, request: web.Request) -> web.Response:
        body = await read_body(request, self.limits)
        lang = request.query.get("lang") or self.manager.language
        try:
            record = json.loads(body)
            frames = replay_frames(record, lang)
        except ValueError:
            return web.json_response({"error": "not JSON"}, status=400, headers=HEADERS)
        except BadRecord as bad:
            return web.json_response({"error": str(bad)}, status=400, headers=HEADERS)
        return web.json_response(frames, headers=HEADERS)

    # ----------------------------------------------------------------- the WebSocket

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(heartbeat=30.0, max_msg_size=MESSAGE_BYTES)
        await socket.prepare(request)
        visitor = await self._hello(socket)
        if visitor is None:
            return socket
        page = Page(visitor, socket.send_str, socket.close)
        crowded = self.pages.add(page)
        if crowded is not None:
            crowded.deny()
        writer = asyncio.create_task(page.run_writer())
        try:
            state = self.state(visitor)
            if state is not None:
                page.offer_state(state)
            await self._read(socket, page)
        finally:
            self.pages.remove(page)
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await writer
            await socket.close()
        return socket

    async def _hello(self, socket: web.WebSocketResponse) -> Visitor | None:
        """The visitor the first message names, admitted; None (told why, closed) if not."""
        try:
            message = await socket.receive_json(timeout=HELLO_SECONDS)
            if not isinstance(message, dict) or message.get("type") != "hello":
                raise Denied("no hello")
            table = message.get("table")
            visitor = self.visitor(str(message.get("auth", "")),
                                   table if isinstance(table, str) else None)  # fmt: skip
            seat = await self.admit(visitor)
        except (Denied, ValueError, TypeError, TimeoutError):
            await socket.send_str(frame("denied", status=401, text=unknown_reader_words("denied")))
            await socket.close(code=4401)
            return None
        except NoTable:
            await socket.send_str(frame("gone", status=404, text=unknown_reader_words("over")))
            await socket.close(code=4404)
            return None
        return Visitor(visitor.user, visitor.chat, WATCH if seat is None else seat, visitor.lang,
                       visitor.name)  # fmt: skip

    async def _read(self, socket: web.WebSocketResponse, page: Page) -> None:
        tokens, since = CHECKS_BURST, time.monotonic()
        async for message in socket:
            if message.type != WSMsgType.TEXT:
                break
            try:
                data = json.loads(message.data)
            except ValueError:
                break
            if not isinstance(data, dict) or page.denied:
                break
            kind = data.get("type")
            if kind == "check":
                now = time.monotonic()
                tokens = min(CHECKS_BURST, tokens + (now - since) * CHECKS_RATE)
                since = now
                if tokens < 1:
                    continue
                tokens -= 1
                answer = self.check(page.visitor, data)
                page.offer(frame("verdict", id=data.get("id"), **answer))
            elif kind == "act" and page.visitor.seat != WATCH:
                for text in await self.act(page.visitor, data):
                    page.offer(frame("said", text=text))

    # ----------------------------------------------------------------- its own server

    async def serve(self, listen: str, port: int) -> tuple[GuardedRunner, int]:
        """A server of its own on ``listen``:``port`` (0: any free port); returns it and the
        port it took. `OSError` when the port is taken."""
        app = guarded_app(self.limits)
        self.add_routes(app)
        runner = GuardedRunner(app, self.limits, RefusalLog(log, self.limits.refusals_every))
        await runner.setup()
        site = web.TCPSite(runner, listen, port)
        try:
            await site.start()
        except OSError:
            await runner.cleanup()
            raise
        server = site._server
        sockets = getattr(server, "sockets", None) or []
        taken = sockets[0].getsockname()[1] if sockets else port
        return runner, int(taken)


def _unauthorized() -> web.HTTPUnauthorized:
    return web.HTTPUnauthorized(text='{"error": "unauthorized"}', content_type="application/json",
                                headers={"WWW-Authenticate": "Link, tma"})  # fmt: skip


def _strings(value: Any) -> list[str] | None:
    """A page's list of short words (cards, a bid); None for anything else."""
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > ARGS_AT_MOST:
        return None
    if not all(isinstance(v, str) and 0 < len(v) <= 12 for v in value):
        return None
    return list(value)
