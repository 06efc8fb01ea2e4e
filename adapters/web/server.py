"""The web table's routes, on the bot's own aiohttp server (`adapters.serving`'s limits):

- ``GET /table``: the page (``/table#<token>`` for a signed link, ``/table?t=<param>`` or a
  direct link for the Telegram Mini App); ``GET /replay``: the replay page; ``GET
  /web/<file>``: their scripts and styles (package data);
- ``GET /table/ws``: the page's WebSocket. Its first message names the visitor
  (``{"type": "hello", "auth": "Link <token>" | "tma <initData>", "table": param}``); then
  the server pushes ``state`` frames after every stored step, answers ``check`` (may these
  cards be played?) with ``verdict`` and ``rules`` (asked when the rules panel first opens)
  with the game's rules (`bot.page.rules_panel`), and runs ``act`` as the player's command,
  answering the player's own refusals as ``said``. A bad credential: a ``denied`` frame
  (401), closed;
- ``POST /table/api/state|check|act``: the same over HTTP, the credential in the
  ``Authorization`` header — 401 and no data for a bad one;
- ``POST /replay/api``: a hand record (JSON) → every step of it (`bot.page.replay`), worked
  out in a process of its own, a few per client (`adapters.web.replaying`); ``POST
  /replay/api/hand``: a stored hand, for who may see it (`adapters.web.hand_replay`).

The door (`adapters.serving`, limits in `adapters.web.page_limits`): a few connections an
address, an unhelloed WebSocket idle (closed first for a newcomer), a page flooding messages
closed with 1008, JSON read with a depth limit, a credential checked before a body is read.
A good credential that opens no table — none there, or not this user's — is one answer, 404
with the same body (``gone``): no one learns from it whether a chat has a table; a quick
table (strangers, in no group) is gone to all but its players, a watcher's link too. A match
over still opens its end (`PageQuestions.ended`); a link opens nothing of a later match.

An action is a command like any chat command (`TableManager.handle`): the same refusals in
the player's language, the same storage before sending, the same per-user flood limit. What
it answers goes out through the manager's sender as usual — the group's posts, private
hands — except the acting player's own replies, which their page shows.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from adapters.serving import (
    BadJson,
    GuardedRunner,
    RefusalLog,
    ServerLimits,
    guarded_app,
    parse_json,
    read_body,
    waiting_for_first_message,
)
from adapters.web import page_limits
from adapters.web.answers import NoTable, gone, page_words, unauthorized
from adapters.web.auth import WATCH, Denied, LinkSigner, Visitor, visitor_of
from adapters.web.buckets import Bucket
from adapters.web.following import StepFollowing
from adapters.web.hand_replay import StoredReplays
from adapters.web.pages import Page, Pages, frame
from adapters.web.params import chat_of_param
from adapters.web.replaying import Replays
from adapters.web.static_files import HEADERS, STATIC, static_files
from bot.commands.registry import TAKES_CARDS
from bot.community.quick_seating import is_quick
from bot.hosting.manager import TableManager
from bot.hosting.page_moves import PageMoves
from bot.hosting.page_questions import PageQuestions
from bot.page.seat_view import PAGE_COMMANDS, unknown_reader_words
from bot.pictures.bundled import REGULAR_FONT
from bot.reading.command import Command

log = logging.getLogger(__name__)
MayWatch = Callable[[str, str], Awaitable[bool]]
"""Whether a user not seated at the table of a chat may watch it (a member of the group)."""


PAGES = web.AppKey("pages", Pages)


class WebTable:
    """The web table of a `TableManager`: its pages and its routes.

    ``bot_token``: the Telegram bot's token, to check Mini Apps' ``initData`` (None: only
    signed links). ``may_watch``: asked whether a Telegram user not seated may watch a
    table (the Telegram adapter answers from the group's members); without it only seated
    players and watch links open a page. Any process sharing the store serves any page: a
    table held elsewhere is read from the store (``questions``), its steps followed by their
    signals (`adapters.web.following`), its moves carried out by its owner (``moves``)."""

    def __init__(
        self,
        manager: TableManager,
        signer: LinkSigner | None = None,
        bot_token: str | None = None,
        limits: ServerLimits | None = None,
        init_data_max_age: float | None = None,
        clock: Callable[[], float] = time.time,
        questions: PageQuestions | None = None,
        moves: PageMoves | None = None,
        may_watch: MayWatch | None = None,
    ) -> None:
        self.manager = manager
        self.questions = questions or PageQuestions(
            manager.open, manager.db, manager.keeper.table_from, manager.language
        )
        self.moves = moves or PageMoves(manager, manager.db.signals)
        self.signer = signer or LinkSigner(match_of=manager.match_at)
        self.bot_token = bot_token
        self.limits = limits or page_limits.WEB_LIMITS
        self.max_age = init_data_max_age
        self.clock = clock
        self.may_watch = may_watch
        self.pages = Pages()
        self.files = static_files()
        self.replays = Replays()
        self.refusals = RefusalLog(log, self.limits.refusals_every)
        self.stored = StoredReplays(
            lambda proof: self.visitor(proof, ""),
            manager,
            self.questions,
            self.replays,
            self.limits,
            self.refusals,
            self._may_watch,
        )
        self.checks: dict[str, Bucket] = {}
        """Each user's bucket of HTTP checks (`CHECKS_BURST`)."""
        self.sockets: set[web.WebSocketResponse] = set()
        """Every open WebSocket, said hello or not (closed at shutdown)."""
        manager.listen_to_steps(self.pages.step)
        self.following = StepFollowing(self.pages, self.questions, manager.db.signals)

    # ----------------------------------------------------------------- who it is

    def visitor(self, authorization: str, table: str | None) -> Visitor:
        chat = chat_of_param(table) if table else table  # "": named later, by the body
        kwargs = {} if self.max_age is None else {"max_age": self.max_age}
        return visitor_of(authorization, chat, self.signer, self.bot_token, self.clock(), **kwargs)

    async def admit(self, visitor: Visitor) -> int | None:
        """The seat whose view ``visitor`` gets (None: the public view); `Denied` when the
        credential gives no view of this table, `NoTable` when it is gone."""
        chat = visitor.chat
        table = await self.questions.table(chat) if chat else None
        ended = None if table is not None or not chat else await self.questions.ended(chat)
        table = table or ended
        if table is None:
            raise NoTable(chat)
        if visitor.match is not None and visitor.match != table.match:
            raise NoTable(chat)  # a link of an earlier match at this chat
        # a match's end shows each player their own seat's last view
        seat = table.seat_of(visitor.user) if ended else self.questions.seat_at(table, visitor.user)
        if visitor.seat is not None and visitor.seat != WATCH:
            if seat != visitor.seat:
                raise Denied("not this seat")
            return seat
        if seat is not None:
            return seat
        if is_quick(chat):  # strangers' table, in no group: no one else watches it
            raise NoTable(chat)
        if visitor.seat == WATCH or await self._may_watch(chat, visitor.user):
            return None
        raise NoTable(chat)  # as if there were none: no one learns whether a chat has one

    async def _may_watch(self, chat: str, user: str) -> bool:
        return self.may_watch is not None and await self.may_watch(chat, user)

    # ----------------------------------------------------------------- what a page asks

    async def state(self, visitor: Visitor) -> dict[str, Any] | None:
        """The page's state; once the match is over, its end as storage keeps it."""
        table = await self.questions.table(visitor.chat) or await self.questions.ended(visitor.chat)
        return None if table is None else self.questions.state(table, visitor.user, visitor.lang)

    async def rules(self, visitor: Visitor) -> dict[str, Any] | None:
        """The rules panel of the table's game, in the page's language (as `state`'s)."""
        table = await self.questions.table(visitor.chat) or await self.questions.ended(visitor.chat)
        return None if table is None else self.questions.rules(table, visitor.user, visitor.lang)

    async def check(self, visitor: Visitor, message: dict[str, Any]) -> dict[str, Any]:
        move, cards = message.get("action"), page_words(message.get("cards"))
        if move not in TAKES_CARDS or cards is None:
            return {"ok": False, "text": ""}
        table = await self.questions.table(visitor.chat)
        ok, text = self.questions.verdict(table, visitor.user, str(move), cards, visitor.lang)
        return {"ok": ok, "text": text, "cards": cards}

    async def act(self, visitor: Visitor, message: dict[str, Any]) -> list[str]:
        """Run the page's action as its player's command; returns the player's own replies
        (sent to the page, not to the chat), the rest sent as any command's answers are."""
        name, args, stamp = (
            message.get("action"),
            page_words(message.get("args")),
            message.get("stamp"),
        )
        if name not in PAGE_COMMANDS or args is None:
            return []
        if stamp is not None and (not isinstance(stamp, str) or len(stamp) > 64):
            return []
        table = await self.questions.table(visitor.chat)
        known = table.names.get(visitor.user) if table is not None else None
        named = known or self.manager.name_at(visitor.chat, visitor.user)
        command = Command(
            str(name),
            tuple(args),
            visitor.user,
            named,
            visitor.chat,
            lang=visitor.lang,
            stamp=stamp,
        )
        return await self.moves.carry_out(command)

    # ----------------------------------------------------------------- routes

    def app(self) -> web.Application:
        """The web table's own app (served on its own port, `serve`): its routes, its open
        pages closed when the server shuts down, its replay worker ended with it."""
        app = guarded_app(self.limits)
        app[PAGES] = self.pages
        self.add_routes(app)
        app.on_shutdown.append(self._close_pages)
        app.cleanup_ctx.append(self._replay_worker)
        app.cleanup_ctx.append(self._sharing)
        return app

    async def _sharing(self, app: web.Application) -> AsyncIterator[None]:
        await self.following.start()  # sharing the store: other processes' steps followed
        await self.moves.start()
        yield
        await asyncio.gather(self.moves.stop(), self.following.stop())

    async def _close_pages(self, app: web.Application) -> None:
        """Every open page told the server is going away (1001), within a second: a stop
        must not wait for pages to leave by themselves."""
        if self.sockets:
            closing = [
                asyncio.ensure_future(
                    socket.close(code=WSCloseCode.GOING_AWAY, message=b"server stopping")
                )
                for socket in list(self.sockets)
            ]
            await asyncio.wait(closing, timeout=1.0)

    async def _replay_worker(self, app: web.Application) -> AsyncIterator[None]:
        yield
        self.replays.close()

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
        app.router.add_post("/replay/api", self.stored.pasted)
        app.router.add_post("/replay/api/hand", self.stored.stored)

    def _file(self, name: str) -> Callable[[web.Request], Awaitable[web.Response]]:
        async def answer(request: web.Request) -> web.Response:
            return self._respond(name)

        return answer

    def _respond(self, name: str) -> web.Response:
        return web.Response(
            body=self.files[name], content_type=STATIC[name], charset="utf-8", headers=HEADERS
        )

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
        """The visitor a request's credential proves, admitted, and its message. The
        credential is checked before the body is read: a request without a good one costs
        no body (401); then the body, JSON with the depth limit (400)."""
        try:
            proven = self.visitor(request.headers.get("Authorization", ""), "")
        except Denied:
            raise unauthorized() from None
        body = await read_body(request, self.limits)
        try:
            message = parse_json(body) if body else {}
        except BadJson:
            raise web.HTTPBadRequest(
                text='{"error": "not JSON"}', content_type="application/json"
            ) from None
        if not isinstance(message, dict):
            raise web.HTTPBadRequest()
        table = message.get("table")
        if not proven.chat and isinstance(table, str):
            proven = dataclasses.replace(proven, chat=chat_of_param(table) or "")
        try:
            seat = await self.admit(proven)
        except Denied:
            raise unauthorized() from None
        except NoTable:
            raise gone() from None
        return dataclasses.replace(proven, seat=seat if seat is not None else WATCH), message

    async def _http_state(self, request: web.Request) -> web.Response:
        visitor, _ = await self._http_visitor(request)
        return web.json_response({"state": await self.state(visitor)}, headers=HEADERS)

    async def _http_check(self, request: web.Request) -> web.Response:
        visitor, message = await self._http_visitor(request)
        bucket = self.checks.get(visitor.user)
        if bucket is None:
            if len(self.checks) > 10_000:  # forget the quiet ones: a full bucket is no bucket
                self.checks = {u: b for u, b in self.checks.items() if b.tokens < b.burst - 1}
            bucket = self.checks[visitor.user] = Bucket(
                page_limits.CHECKS_BURST, page_limits.CHECKS_RATE
            )
        if not bucket.take():
            self.refusals.refused(
                f"a check of {visitor.user}: past {page_limits.CHECKS_RATE:g} a second"
            )
            raise web.HTTPTooManyRequests(headers={"Retry-After": "1"})
        return web.json_response(await self.check(visitor, message), headers=HEADERS)

    async def _http_act(self, request: web.Request) -> web.Response:
        visitor, message = await self._http_visitor(request)
        if visitor.seat == WATCH:
            raise web.HTTPForbidden()
        said = await self.act(visitor, message)
        return web.json_response(
            {"said": said, "state": await self.state(visitor)}, headers=HEADERS
        )

    # ----------------------------------------------------------------- the WebSocket

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(heartbeat=30.0, max_msg_size=page_limits.MESSAGE_BYTES)
        await socket.prepare(request)
        self.sockets.add(socket)
        try:
            await self._serve_socket(socket, request)
        finally:
            self.sockets.discard(socket)
        return socket

    async def _serve_socket(self, socket: web.WebSocketResponse, request: web.Request) -> None:
        try:
            with waiting_for_first_message(request):  # idle till then: closed for a newcomer
                visitor = await self._hello(socket)
        except ConnectionResetError:  # gone before its hello: nothing to tell anyone
            self.refusals.gone("a WebSocket closed before its hello")
            return
        if visitor is None:
            return
        page = Page(visitor, socket.send_str, socket.close)
        crowded = self.pages.add(page)
        if crowded is not None:
            crowded.deny()
        writer = asyncio.create_task(page.run_writer())
        try:
            state = await self.state(visitor)
            if state is not None:
                page.offer_state(state)
            await self._read(socket, page)
        finally:
            self.pages.remove(page)
            if visitor.chat not in self.pages.by_chat:
                self.questions.forget(visitor.chat)
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await writer
            await socket.close()

    async def _hello(self, socket: web.WebSocketResponse) -> Visitor | None:
        """The visitor the first message names, admitted; None (told why, closed) if not."""
        try:
            hello = await socket.receive(timeout=page_limits.HELLO_SECONDS)
            if hello.type != WSMsgType.TEXT:
                if hello.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED):
                    raise ConnectionResetError("closed before its hello")
                raise Denied("no hello")
            message = parse_json(hello.data)
            if not isinstance(message, dict) or message.get("type") != "hello":
                raise Denied("no hello")
            table = message.get("table")
            visitor = self.visitor(
                str(message.get("auth", "")), table if isinstance(table, str) else None
            )
            seat = await self.admit(visitor)
        except (Denied, ValueError, TypeError, TimeoutError):  # BadJson is a ValueError
            await socket.send_str(frame("denied", status=401, text=unknown_reader_words("denied")))
            await socket.close(code=4401)
            return None
        except NoTable:
            await socket.send_str(frame("gone", status=404, text=unknown_reader_words("over")))
            await socket.close(code=4404)
            return None
        return dataclasses.replace(visitor, seat=WATCH if seat is None else seat)

    async def _read(self, socket: web.WebSocketResponse, page: Page) -> None:
        checks = Bucket(page_limits.CHECKS_BURST, page_limits.CHECKS_RATE)
        messages = Bucket(page_limits.MESSAGES_BURST, page_limits.MESSAGES_RATE)
        async for message in socket:
            if message.type != WSMsgType.TEXT:
                break
            if not messages.take():
                self.refusals.refused(
                    f"a page of {page.visitor.user}: past "
                    f"{page_limits.MESSAGES_RATE:g} messages a second, closed"
                )
                await socket.close(code=WSCloseCode.POLICY_VIOLATION, message=b"too many")
                break
            try:
                data = parse_json(message.data)
            except BadJson:
                break
            if not isinstance(data, dict) or page.denied:
                break
            kind = data.get("type")
            if kind == "check":
                if not checks.take():
                    continue
                answer = await self.check(page.visitor, data)
                page.offer(frame("verdict", id=data.get("id"), **answer))
            elif kind == "rules":
                page.offer(frame("rules", rules=await self.rules(page.visitor)))
            elif kind == "act" and page.visitor.seat != WATCH:
                for text in await self.act(page.visitor, data):
                    page.offer(frame("said", text=text))

    # ----------------------------------------------------------------- its own server

    async def serve(self, listen: str, port: int) -> tuple[GuardedRunner, int]:
        """A server of its own on ``listen``:``port`` (0: any free port); returns it and the
        port it took. `OSError` when the port is taken."""
        runner = GuardedRunner(self.app(), self.limits, self.refusals)
        taken = await runner.start(listen, port)
        return runner, taken
