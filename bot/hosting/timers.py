"""The tables' own time: AI seats, 托管, time-outs and the ready timer, acted on in batches
stored together; slow AI decisions handed to the AI workers (`bot.ai_seats.slow_decisions`); and
the heartbeat that prunes what no longer matters.

`Timers` is one of the `bot.hosting.manager.TableManager`'s collaborators.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from asyncio import FIRST_COMPLETED
from collections.abc import Awaitable, Callable, Collection

from bot.ai_seats.slow_decisions import Decision, Thinking
from bot.ai_seats.worker_pool import FLOOR, AiWorkers
from bot.commands import steps as table_steps
from bot.hosting.keeping import Sender, TableKeeper
from bot.hosting.open_tables import OpenTables
from bot.hosting.table_leases import Leases
from bot.ops.defaults import TIMER_STEP
from bot.ops.logs import current_table, table_context
from bot.reading.command import Command
from bot.table.ai_turns import decide_job, slow_decision, still_current
from bot.table.effects import Effects
from bot.table.playing import apply_action
from bot.table.state import Table
from bot.views.outgoing import Outgoing
from engine.actions import Action
from storage.leases import LeaseLost

Contain = Callable[[str, Command | None], Awaitable[list[Outgoing]]]
"""Puts a table whose step raised back as storage knew it; returns what to send."""

log = logging.getLogger(__name__)
HEARTBEAT_SECONDS = 5.0
BATCH_TABLES = 8
"""Tables acting in one timer pass share one transaction (group commit), at most this many:
fewer round trips to the database, and a bounded wait for each of them."""
BATCHES_IN_FLIGHT = 2
"""While one batch is being written (SQLite works in its own thread), the next is computed."""


class Timers:
    """The timers of a `bot.hosting.manager.TableManager`'s tables."""

    def __init__(
        self,
        tables: OpenTables,
        keeper: TableKeeper,
        leases: Leases,
        send: Sender,
        contain: Contain,
        heartbeat: Callable[[], Awaitable[None]],
        clock: Callable[[], float],
        ai_workers: int = 0,
    ) -> None:
        self.tables = tables
        self.keeper = keeper
        self.leases = leases
        self.send = send
        self.contain = contain
        self.heartbeat = heartbeat
        """Prunes what no longer matters and marks the process alive, every few seconds."""
        self.clock = clock
        self.last_heartbeat = 0.0
        self.thinking = Thinking(self.decided, AiWorkers(decide_job, ai_workers))
        """Slow AI decisions under way in the AI workers (`bot.ai_seats.slow_decisions`)."""

    async def tick(self) -> None:
        """Let every table act on its timers (AI seats, 托管, time-outs, ready), storing the
        tables that acted together in batches before anything about them is sent."""
        now = self.clock()
        due = []
        floored: set[str] = set()  # slow AI seats played at `FLOOR` now: the workers are full
        workers = self.thinking.workers
        for table in self.tables.tables():
            chat = table.chat
            wake = table.next_wake()
            if wake is None or now < wake or self.thinking.busy(chat):
                continue
            decision = slow_decision(table)
            if decision is not None:
                share = workers.reserve(decision.game, decision.level, decision.view)
                if share is not None:
                    self.thinking.start(decision, share)  # decided off the loop, applied when back
                    continue
                floored.add(chat)
            due.append(chat)
        in_flight: set[asyncio.Task[None]] = set()
        for start in range(0, len(due), BATCH_TABLES):
            batch = due[start : start + BATCH_TABLES]
            in_flight.add(asyncio.create_task(self.tick_batch(batch, floored)))
            if len(in_flight) >= BATCHES_IN_FLIGHT:
                done, in_flight = await asyncio.wait(in_flight, return_when=FIRST_COMPLETED)
                for task in done:
                    task.result()
        if in_flight:
            await asyncio.gather(*in_flight)
        await self.leases.keep_leases()
        now = self.clock()
        if now - self.last_heartbeat >= HEARTBEAT_SECONDS:
            self.last_heartbeat = now
            await self.heartbeat()

    async def tick_batch(self, chats: list[str], floored: Collection[str] = ()) -> None:
        async with contextlib.AsyncExitStack() as held:
            steps: list[tuple[Table, Effects]] = []
            failed: list[str] = []
            for chat in chats:
                await held.enter_async_context(self.tables.lock(chat))
                table = self.tables.get(chat)
                wake = None if table is None else table.next_wake()
                if table is None or wake is None or self.clock() < wake:
                    continue  # a command came first and moved the timer
                marked = current_table.set(chat)  # `table_context`, without its object
                try:
                    level = FLOOR if chat in floored else None
                    steps.append((table, table_steps.tick(table, level)))
                except Exception:
                    failed.append(chat)
                finally:
                    current_table.reset(marked)
            lost: list[str] = []
            try:
                await self.keeper.store_batch(steps)
            except LeaseLost as gone:  # tables another process took: theirs, not sent here
                lost += gone.chats
                steps = [(t, e) for t, e in steps if t.chat not in gone.chats]
                steps = await self.keeper.store_each(steps, failed, lost)
            except Exception:  # one table's bad step must not cost the others theirs
                log.exception("storing a batch of %d tables failed; storing one by one", len(steps))
                steps = await self.keeper.store_each(steps, failed, lost)
            self.leases.lose(lost)
            for _, effects in steps:
                for message in effects.out:
                    await self.send(message)
            for chat in failed:
                with table_context(chat):
                    contained = await self.contain(chat, None)
                for message in contained:
                    await self.send(message)

    async def decided(self, decision: Decision, action: Action | None) -> None:
        """A slow AI decision came back: applied and stored if the table is still where it
        was when asked (else dropped: the table moved on and its timer asks again)."""
        chat = decision.chat
        async with self.tables.lock(chat), table_context(chat):
            table = self.tables.get(chat)
            if table is None or not still_current(decision, table):
                return
            try:
                if action is None:
                    raise RuntimeError("the AI decision failed")
                effects = apply_action(table, action)
                await self.keeper.store_step(table, effects)
                out = effects.out
            except LeaseLost as lost:
                self.leases.lose(lost.chats)
                out = []
            except Exception:
                out = await self.contain(chat, None)
            for message in out:
                await self.send(message)

    async def run_timers(self, stop: asyncio.Event, step: float = TIMER_STEP) -> None:
        """Run the tables' timers until ``stop``; nothing a table does can end this loop."""
        warming = asyncio.create_task(self.thinking.workers.warm())  # while the tables run
        while not stop.is_set():
            try:
                await self.tick()
            except Exception:
                log.exception("a timer pass failed; the timers go on")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=step)
        warming.cancel()  # done by now, but for a very short run
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await warming  # a worker that failed to start fails its decisions, logged there
        await self.thinking.close()  # a decision under way is applied and stored, not lost
