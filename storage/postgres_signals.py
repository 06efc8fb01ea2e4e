"""`storage.signals` on PostgreSQL: one pooled connection held for ``LISTEN`` (asyncpg calls
back on it as notifications arrive), sends on any pooled connection. A connection lost (the
server restarted, a network cut) is made again in the background, its channels listened to
again, and every listener told `storage.signals.MISSED`."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import asyncpg
import asyncpg.pool

from storage.signals import MISSED, Heard, Signals

log = logging.getLogger(__name__)
RECONNECT_EVERY = 1.0
"""How often a lost listening connection is tried again."""


class PostgresSignals(Signals):
    def __init__(self, pool: asyncpg.Pool[asyncpg.Record]) -> None:
        self._pool = pool
        self._connection: Any = None
        """The held connection listening (None: not yet, or lost)."""
        self._heard: dict[str, list[Heard]] = {}
        self._connecting = asyncio.Lock()
        self._closed = False
        self._again: asyncio.Task[None] | None = None

    async def listen(self, channel: str, heard: Heard) -> None:
        async with self._connecting:
            first = channel not in self._heard
            self._heard.setdefault(channel, []).append(heard)
            if self._connection is None:
                await self._connect()
            elif first:
                await self._connection.add_listener(channel, self._arrived)

    async def _connect(self) -> None:
        connection = await self._pool.acquire()
        try:
            for channel in self._heard:
                await connection.add_listener(channel, self._arrived)
        except BaseException:
            await self._pool.release(connection)
            raise
        connection.add_termination_listener(self._lost)
        self._connection = connection

    def _arrived(self, connection: Any, pid: int, channel: str, payload: object) -> None:
        for heard in list(self._heard.get(channel, ())):
            try:
                heard(str(payload))
            except Exception:  # one listener's trouble never silences the others
                log.exception("a listener of %s failed", channel)

    def _lost(self, connection: Any) -> None:
        if self._closed or connection is not self._connection:
            return
        log.warning("the connection listening for signals was lost: making it again")
        self._connection = None
        self._again = asyncio.ensure_future(self._reconnect())

    async def _reconnect(self) -> None:
        while not self._closed:
            try:
                async with self._connecting:
                    if self._connection is None:
                        await self._connect()
                break
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
                log.warning("listening again failed (%s): trying again", error)
                await asyncio.sleep(RECONNECT_EVERY)
        for channel in list(self._heard):
            self._arrived(None, 0, channel, MISSED)

    async def send(self, channel: str, payload: str) -> None:
        await self._pool.execute("SELECT pg_notify($1, $2)", channel, payload)

    async def close(self) -> None:
        self._closed = True
        if self._again is not None:
            self._again.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._again
        connection, self._connection = self._connection, None
        if connection is not None and not connection.is_closed():
            with contextlib.suppress(Exception):
                for channel in self._heard:
                    await connection.remove_listener(channel, self._arrived)
                await self._pool.release(connection)
