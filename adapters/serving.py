"""The bot's own HTTP servers (the Telegram webhook, ``/healthz``) facing the open internet:
how long a client may take, how many may be connected at once, how much one may send.

aiohttp alone closes nothing that never finishes its request: a client that opens a
connection and sends half a request line holds a file descriptor for as long as it likes, and
a few hundred of them exhaust the process's files (the bot then accepts nothing, and asyncio
logs every failed ``accept``). Here every connection must send a whole request's headers
within `ServerLimits.header_timeout` of connecting, or of its last answer, and is closed
otherwise; at most `ServerLimits.max_connections` are kept. When a new one would pass the cap,
the oldest connection still waiting for its headers is closed to make room — a flood of slow
clients cannot lock out a real one that sends its request at once; when every connection is
busy with a request, the new one is accepted and closed at once (not left in the kernel's
queue, where it would wait unseen). Lines about refused connections and requests go through
one `RefusalLog`: at most one a minute, counting the rest.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

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
    max_body: int = 512 * 1024
    """Bytes of a request's body: 413 beyond (an update is a few kilobytes)."""
    refusals_every: float = 60.0
    """At most one log line about refused requests per this many seconds."""


DEFAULT_LIMITS = ServerLimits()


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
        self._said_at: float | None = None

    def refused(self, what: str) -> None:
        now = self.clock()
        if self._said_at is not None and now - self._said_at < self.every:
            self.unsaid += 1
            return
        more = f" ({self.unsaid} more refused since the last such line)" if self.unsaid else ""
        self.logger.warning("refused %s%s", what, more)
        self._said_at = now
        self.unsaid = 0


class GuardedConnection(RequestHandler):
    """aiohttp's connection handler, closed when its request's headers are late."""

    def __init__(self, server: GuardedServer, **kwargs: Any) -> None:
        super().__init__(server, **kwargs)
        self.server = server
        self._overdue: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        if not self._force_close:
            timeout = self.server.limits.header_timeout
            self._overdue = self._loop.call_later(timeout, self._headers_overdue)

    def connection_lost(self, exc: BaseException | None) -> None:
        if self._overdue is not None:
            self._overdue.cancel()
        super().connection_lost(exc)

    def waiting_for_headers(self) -> bool:
        """Whether this connection has no request to work on: it never sent a whole request's
        headers, or it is idle between requests."""
        if self._messages:
            return False
        if self._request_count == 0:
            return True
        return self._waiter is not None and not self._waiter.done()

    def _headers_overdue(self) -> None:
        self._overdue = None
        if self._request_count == 0 and not self._force_close:
            timeout = self.server.limits.header_timeout
            self.server.refusals.refused(f"a connection that sent no request in {timeout:g} s")
            self.force_close()


class GuardedServer(web.Server):
    """aiohttp's server with `GuardedConnection`s, at most ``limits.max_connections``."""

    def __init__(
        self, handler: Any, *, limits: ServerLimits, refusals: RefusalLog, **kwargs: Any
    ) -> None:
        super().__init__(handler, **kwargs)
        self.limits = limits
        self.refusals = refusals
        self.most_connections = 0
        """The most connections kept at once so far."""
        self._kept: dict[GuardedConnection, None] = {}  # oldest first

    def __call__(self) -> RequestHandler:
        return GuardedConnection(self, loop=self._loop, **self._kwargs)

    def connection_made(self, handler: RequestHandler, transport: asyncio.Transport) -> None:
        assert isinstance(handler, GuardedConnection)
        if len(self._kept) >= self.limits.max_connections and not self._make_room():
            cap = self.limits.max_connections
            self.refusals.refused(f"a connection: {cap} connections are all busy")
            handler.force_close()
            return
        super().connection_made(handler, transport)
        self._kept[handler] = None
        self.most_connections = max(self.most_connections, len(self._kept))

    def connection_lost(self, handler: RequestHandler, exc: BaseException | None = None) -> None:
        self._kept.pop(handler, None)  # type: ignore[call-overload]
        super().connection_lost(handler, exc)

    def _make_room(self) -> bool:
        idle = next((kept for kept in self._kept if kept.waiting_for_headers()), None)
        if idle is None:
            return False
        del self._kept[idle]
        cap = self.limits.max_connections
        self.refusals.refused(f"a connection waiting for its request: {cap} connections kept")
        idle.force_close()
        return True


class GuardedRunner(web.AppRunner):
    """`web.AppRunner` serving ``app`` through a `GuardedServer`. ``app`` must have been made
    by `guarded_app` (for its body limit)."""

    def __init__(self, app: web.Application, limits: ServerLimits, refusals: RefusalLog) -> None:
        super().__init__(
            app, access_log=None, keepalive_timeout=limits.header_timeout, lingering_time=2.0
        )
        self.limits = limits
        self.refusals = refusals

    @property
    def guarded(self) -> GuardedServer | None:
        server = self.server
        return server if isinstance(server, GuardedServer) else None

    async def _make_server(self) -> web.Server:
        plain = await super()._make_server()
        return GuardedServer(
            plain.request_handler,
            limits=self.limits,
            refusals=self.refusals,
            request_factory=plain.request_factory,
            handler_cancellation=plain.handler_cancellation,
            loop=asyncio.get_running_loop(),
            **plain._kwargs,
        )


def guarded_app(limits: ServerLimits) -> web.Application:
    return web.Application(client_max_size=limits.max_body)


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
