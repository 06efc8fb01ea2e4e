"""AI decisions that take long — the ``hard`` level's search — are made by the AI workers
(`bot.ai_seats.worker_pool`: other processes, or a thread of this one), off the event loop, so
that no other table waits on one.

The decision is taken from a copy of what the seat may know (its view) and a fixed list of
what it may do; when it comes back, it is applied only if the table is still where it was
(same hand, same turn, still this seat's). A table that is thinking is not ticked again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.ai_seats.worker_pool import AiWorkers, Share
from bot.ops import metrics
from engine.actions import Action

log = logging.getLogger(__name__)
SLOW_LEVELS = frozenset({"hard"})
"""AI levels whose decisions are made by the AI workers (the others take well under 1 ms)."""


@dataclass(frozen=True)
class Decision:
    """A slow AI seat's pending choice, and where the table stood when it was asked."""

    chat: str
    hand: int
    turn: int
    seat: int
    game: str
    level: str
    view: Any
    legal: tuple[Action, ...]


Decided = Callable[[Decision, Action | None], Awaitable[None]]
"""Applies a decision that came back (None: deciding raised; the table contains it)."""


class Thinking:
    """The decisions being made by the AI workers, one per table at most."""

    def __init__(self, decided: Decided, workers: AiWorkers) -> None:
        self.decided = decided
        self.workers = workers
        self.tasks: dict[str, asyncio.Task[None]] = {}

    def busy(self, chat: str) -> bool:
        return chat in self.tasks

    def start(self, decision: Decision, share: Share | None = None) -> None:
        """Think about ``decision`` with the ``share`` of its budget reserved for it (none
        given: reserved when it starts)."""
        task = asyncio.create_task(self._think(decision, share))
        self.tasks[decision.chat] = task
        task.add_done_callback(lambda _: self.tasks.pop(decision.chat, None))

    async def _think(self, decision: Decision, share: Share | None) -> None:
        try:
            with metrics.deciding(decision.game, decision.level):  # as long as it kept the table
                action: Action | None = await self.workers.decide(
                    decision.game, decision.level, decision.view, decision.legal, share
                )
        except Exception:
            log.exception("table %s: an AI decision failed", decision.chat)
            action = None
        await self.decided(decision, action)

    async def settle(self) -> None:
        """Until every decision under way has come back and been applied."""
        while self.tasks:
            await asyncio.gather(*self.tasks.values(), return_exceptions=True)

    async def close(self) -> None:
        """Every decision under way applied, then the workers stopped."""
        await self.settle()
        self.workers.close()
