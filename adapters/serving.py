"""The bot's own HTTP servers (the Telegram webhook, the web table, ``/healthz``) facing the
open internet: how long a client may take, how many may be connected at once — in all and
from one address —, how much one may send, and how JSON is read.

Everything goes through public interfaces: the app is served by a `web.AppRunner` (its
``keepalive_timeout``, ``shutdown_timeout`` and ``handler_cancellation`` arguments), and
the listening socket is asyncio's, made with `loop.create_server` around the runner's
`web.Server` — the protocol factory aiohttp documents — wrapped by a `Door`. The door sees
each connection arrive before aiohttp does:

- it counts connections in all (`ServerLimits.max_connections`) and per source address
  (`ServerLimits.per_address`); past either cap, the oldest connection that is only waiting
  — no request's headers in yet, idle between requests, or a WebSocket that has not said
  hello (`waiting_for_first_message`) — is closed to make room, and when none is, the new one
  is closed at once (never left in the kernel's queue, never handed to aiohttp);
- a connection that sends no whole request's headers within `ServerLimits.header_timeout`
  is closed (aiohttp's keep-alive timeout then bounds the wait between requests);
- a request's body must come within `ServerLimits.body_timeout` (`read_body`: 408).

Nothing a client does may end in an ERROR line: refused and closed connections are counted
in one `RefusalLog` line a minute at most, a client gone mid-request is a DEBUG line (the
`Door`'s middleware), and JSON is read with a size and a depth limit (`parse_json`), so that
a deeply nested body is a 400, never a `RecursionError`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from aiohttp import web

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ServerLimits:
    """What a client of the bot's HTTP servers may do. The request line and each header field
    are at most 8190 bytes, 128 headers at most (aiohttp's own limits: 400 beyond them)."""

    header_timeout: float = 10.0
    """Seconds from connecting, or from the last answer on a kept-alive connection, to a whole
    request's headers; the connection is closed when they run out."""
    body_timeout: float = 10.0
    """Seconds to receive a request's body once its headers are in: 408 after that."""
    max_connections: int = 100
    """Connections kept at once (Telegram itself opens at most 100 to a webhook)."""
    per_address: int | None = None
    """Connections kept at once from one source address (None: only the total counts — a
    server behind a reverse proxy sees every client at the proxy's address)."""
    max_body: int = 512 * 1024
    """Bytes of a request's body: 413 beyond (an update is a few kilobytes)."""
    refusals_every: float = 60.0
    """At most one log line about refused requests per this many seconds."""
    shutdown_timeout: float = 2.0
    """Seconds the server's cleanup waits for requests in progress before cancelling them:
    a stop must not hang on an open page."""


DEFAULT_LIMITS = ServerLimits()
JSON_DEPTH = 32
"""Levels of nesting a JSON body may have (``[[…]]``): nothing the bot reads has more than a
few, and Python's parser recurses once per level."""


class RefusalLog:
    """Log lines about refused requests, at most one every ``every`` seconds: a flood of bad
    requests must not become a flood of log lines. Those not written are counted in the next."""

    def __init__(
        self, logger: logging.Logger, every: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.logger = logger
        self.every = every
        self.clock = clock
        self.unsaid = 0
        self.total = 0
        """Every refusal so far (for tests and the bench)."""
        self._said_at: float | None = None

    def refused(self, what: str) -> None:
        self.total += 1
        now = self.clock()
        if self._said_at is not None and now - self._said_at < self.every:
            self.unsaid += 1
            return
        more = f" ({self.unsaid} more refused since the last such line)" if self.unsaid else ""
        self.logger.warning("refused %s%s", what, more)
        self._said_at = now
        self.unsaid = 0

    def gone(self, what: str) -> None:
        """A client that went away before it was answered: nothing to act on, a DEBUG line."""
        self.logger.debug("a client went away: %s", what)


# ----------------------------------------------------------------- JSON with limits


class BadJson(ValueError):
    """A body that is not JSON, or JSON nested deeper than allowed."""


_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKET = re.compile(rb"[^\[\]{}]+")
_LEVELS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")


def json_depth(text: bytes) -> int:
    """How deep the brackets of a JSON text go (strings left out): counted in C-level passes
    (regular expressions, `bytes.translate`, `accumulate`), never by recursion."""
    brackets = _NOT_BRACKET.sub(b"", _STRING.sub(b"", text))
    if not brackets:
        return 0
    steps = memoryview(brackets.translate(_LEVELS)).cast("b")
    return max(accumulate(steps))


def parse_json(body: bytes | str, *, max_bytes: int | None = None, depth: int = JSON_DEPTH) -> Any:
    """``body`` parsed as JSON; `BadJson` when it is not JSON, longer than ``max_bytes`` or
    nested deeper than ``depth`` levels — never a `RecursionError`."""
    data = body.encode("utf-8", "surrogatepass") if isinstance(body, str) else body
    if max_bytes is not None and len(data) > max_bytes:
        raise BadJson("too long")
    if json_depth(data) > depth:
        raise BadJson(f"nested deeper than {depth} levels")
    try:
        return json.loads(data)
    except (ValueError, RecursionError):  # RecursionError: a parser's own stack, to be sure
        raise BadJson("not JSON") from None


async def read_body(request: web.Request, limits: ServerLimits) -> bytes:
    """The request's body: 413 when it is (or says it is) over ``limits.max_body``, 408 when
    it takes longer than ``limits.body_timeout`` (the connection is then closed)."""
    if request.content_length is not None and request.content_length > limits.max_body:
        raise web.HTTPRequestEntityTooLarge(limits.max_body, request.content_length)
    try:
        async with asyncio.timeout(limits.body_timeout):
            return await request.read()
    except TimeoutError:
        raise web.HTTPRequestTimeout(headers={"Connection": "close"}) from None


# ----------------------------------------------------------------- connections


class Connection(asyncio.Protocol):
    """One accepted connection: aiohttp's protocol behind it once the `Door` lets it in."""

    def __init__(self, door: Door, make_inner: Callable[[], asyncio.BaseProtocol]) -> None:
        self.door = door
        self.make_inner = make_inner
        self.inner: Any = None
        self.transport: asyncio.Transport | None = None
        self.address = ""
        self.handling = 0
        """Requests of this connection in their handlers (the door's middleware counts)."""
        self.waiting = 0
        """Handlers of it awaiting a client's first message (a WebSocket's hello)."""
        self.answered = False
        """Whether a request of it has reached its handler."""
        self._overdue: asyncio.TimerHandle | None = None

    def idle(self) -> bool:
        """Whether closing it takes nothing from anyone: no request in a handler, or only one
        that awaits the client's first message."""
        return self.handling == 0 or self.handling == self.waiting

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()

    # asyncio.Protocol: each call handed to aiohttp's protocol once admitted.

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        peer = transport.get_extra_info("peername")
        self.address = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        if not self.door.admit(self):
            transport.close()
            return
        loop = asyncio.get_running_loop()
        self._overdue = loop.call_later(self.door.limits.header_timeout, self._headers_overdue)
        self.inner = self.make_inner()
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self.inner is not None:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.inner is not None else None

    def connection_lost(self, exc: BaseException | None) -> None:
        if self._overdue is not None:
            self._overdue.cancel()
        self.door.forget(self)
        if self.inner is not None:
            self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()

    def _headers_overdue(self) -> None:
        self._overdue = None
        if not self.answered:
            timeout = self.door.limits.header_timeout
            self.door.refusals.refused(f"a connection that sent no request in {timeout:g} s")
            self.close()


class Door:
    """Who may connect: the caps in all and per address, the oldest idle connection closed
    to make room for a new one."""

    def __init__(self, limits: ServerLimits, refusals: RefusalLog) -> None:
        self.limits = limits
        self.refusals = refusals
        self.kept: dict[Connection, None] = {}  # oldest first
        self.per_address: Counter[str] = Counter()
        self.by_transport: dict[asyncio.BaseTransport, Connection] = {}
        self.most_connections = 0
        """The most connections kept at once so far."""

    def protocol_factory(
        self, make_inner: Callable[[], asyncio.BaseProtocol]
    ) -> Callable[[], Connection]:
        return lambda: Connection(self, make_inner)

    def admit(self, connection: Connection) -> bool:
        limits, address = self.limits, connection.address
        per_address = limits.per_address
        if per_address is not None and self.per_address[address] >= per_address:
            mine = (kept for kept in self.kept if kept.address == address)
            if not self._make_room(mine, f"{per_address} from one address"):
                self.refusals.refused(f"a connection: {per_address} from one address are busy")
                return False
        if len(self.kept) >= limits.max_connections:
            cap = limits.max_connections
            if not self._make_room(iter(self.kept), f"{cap} in all"):
                self.refusals.refused(f"a connection: {cap} connections are all busy")
                return False
        self.kept[connection] = None
        self.per_address[address] += 1
        assert connection.transport is not None
        self.by_transport[connection.transport] = connection
        self.most_connections = max(self.most_connections, len(self.kept))
        return True

    def forget(self, connection: Connection) -> None:
        if self.kept.pop(connection, False) is None:
            self.per_address[connection.address] -= 1
            if self.per_address[connection.address] <= 0:
                del self.per_address[connection.address]
        if connection.transport is not None:
            self.by_transport.pop(connection.transport, None)

    def _make_room(self, candidates: Iterator[Connection], cap: str) -> bool:
        idle = next((kept for kept in candidates if kept.idle()), None)
        if idle is None:
            return False
        self.forget(idle)
        self.refusals.refused(f"an idle connection, closed for a new one: {cap} kept")
        idle.close()
        return True

    def connection_of(self, request: web.BaseRequest) -> Connection | None:
        transport = request.transport
        return self.by_transport.get(transport) if transport is not None else None

    @web.middleware
    async def middleware(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """Counts the request as in its handler, and turns a client gone mid-request into a
        DEBUG line (aiohttp would log it as an ERROR with its traceback)."""
        connection = self.connection_of(request)
        if connection is not None:
            connection.answered = True
            connection.handling += 1
        try:
            return await handler(request)
        except ConnectionResetError as gone:  # aiohttp's ClientConnectionResetError is one
            self.refusals.gone(f"{request.method} {request.path}: {gone}")
            return web.Response(status=499)  # never written: there is no one to read it
        finally:
            if connection is not None:
                connection.handling -= 1


DOOR = web.AppKey("door", Door)


@contextlib.contextmanager
def waiting_for_first_message(request: web.BaseRequest) -> Iterator[None]:
    """While the client of ``request`` is awaited (a WebSocket's hello), its connection
    counts as idle: closed first when a new one needs its place."""
    door = request.app.get(DOOR) if isinstance(request, web.Request) else None
    connection = door.connection_of(request) if door is not None else None
    if connection is not None:
        connection.waiting += 1
    try:
        yield
    finally:
        if connection is not None:
            connection.waiting -= 1


# ----------------------------------------------------------------- serving an app


class GuardedRunner:
    """``app`` served under ``limits`` on one address (`start`), until `cleanup`."""

    def __init__(self, app: web.Application, limits: ServerLimits, refusals: RefusalLog) -> None:
        self.limits = limits
        self.refusals = refusals
        self.door = Door(limits, refusals)
        app[DOOR] = self.door
        app.middlewares.insert(0, self.door.middleware)
        self.runner = web.AppRunner(
            app,
            access_log=None,
            keepalive_timeout=limits.header_timeout,
            lingering_time=2.0,
            shutdown_timeout=limits.shutdown_timeout,
            handler_cancellation=True,
        )
        self._listening: asyncio.AbstractServer | None = None
        self.port = 0
        """The port it listens on, once started."""

    @property
    def most_connections(self) -> int:
        return self.door.most_connections

    async def setup(self) -> None:
        await self.runner.setup()

    async def start(self, host: str, port: int, *, backlog: int = 128) -> int:
        """Listen on ``host``:``port`` (0: any free port); returns the port taken. `OSError`
        when it cannot (the runner is then cleaned up)."""
        if self.runner.server is None:
            await self.setup()
        server = self.runner.server
        assert server is not None
        loop = asyncio.get_running_loop()
        try:
            self._listening = await loop.create_server(
                self.door.protocol_factory(server),
                host,
                port,
                backlog=backlog,
                reuse_address=True,
            )
        except OSError:
            await self.cleanup()
            raise
        sockets = self._listening.sockets
        self.port = int(sockets[0].getsockname()[1]) if sockets else port
        return self.port

    async def cleanup(self) -> None:
        """Stop listening, close every connection (open pages included: the app's
        ``on_shutdown``) and end the app, within about ``limits.shutdown_timeout``."""
        if self._listening is not None:
            self._listening.close()
            self._listening = None
        await self.runner.cleanup()


def guarded_app(limits: ServerLimits, **kwargs: Any) -> web.Application:
    return web.Application(client_max_size=limits.max_body, **kwargs)


async def listen_with(
    app: web.Application, host: str, port: int, limits: ServerLimits, refusals: RefusalLog
) -> GuardedRunner:
    """``app`` set up and listening on ``host``:``port``; `OSError` when it cannot listen."""
    runner = GuardedRunner(app, limits, refusals)
    await runner.setup()
    await runner.start(host, port)
    return runner
