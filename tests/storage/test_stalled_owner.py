"""A bot process stopped in the middle of a step (SIGSTOP, a frozen machine) holds the row
locks of what it wrote. The PostgreSQL server ends such a stalled transaction, so another
process can still take its tables over instead of waiting on the locks for ever."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from storage.postgres import PostgresDatabase

STALL = 1.0
"""The stalled-transaction limit for this test, in seconds (the bot's is longer)."""
NEVER = 30.0
"""A claim still waiting after this long waits on the stalled lock for ever."""


async def test_a_stalled_owners_lease_is_taken_over_once_the_server_ends_its_step(
    postgres_server,
):
    address = postgres_server.database()
    stalled = await PostgresDatabase.connect(address, stalled_after=STALL)
    other = await PostgresDatabase.connect(address, stalled_after=STALL)
    wake = asyncio.Event()

    async def stalled_step() -> None:
        async with stalled.transaction() as tx:
            await tx.renew("a", now=101, until=104)  # locks a's lease row
            await wake.wait()  # the process stops here, the transaction open

    async def take_over() -> str:
        async with other.transaction() as tx:
            return (await tx.claim("tg:-1", "b", "http://b", 110, 120)).owner

    step: asyncio.Task[None] | None = None
    try:
        async with stalled.transaction() as tx:
            await tx.claim("tg:-1", "a", "http://a", 100, 103)
        step = asyncio.create_task(stalled_step())
        await asyncio.sleep(0.2)  # the renewal has taken its lock
        assert not step.done()
        assert await asyncio.wait_for(take_over(), NEVER) == "b"
        wake.set()  # the stalled process wakes: its step fails, nothing of it lands
        # the client reports the lost session as whichever error its state at the time gives
        lost = (asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError, OSError)
        with pytest.raises(lost):
            await step
        assert (await other.leases_of(["tg:-1"], now=111))["tg:-1"].owner == "b"
    finally:
        wake.set()  # a failed test must not leave the step holding its connection
        if step is not None:
            await asyncio.gather(step, return_exceptions=True)
        await stalled.close()
        await other.close()
