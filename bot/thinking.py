"""AI decisions that take long — the ``hard`` level's search, up to its time budget — are made
in a worker thread, off the event loop, so that no other table waits on one.

The decision is taken from a copy of what the seat may know (its view) and a fixed list of
what it may do; when it comes back, it is applied only if the table is still where it was
(same hand, same turn, still this seat's). A table that is thinking is not ticked again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot import metrics
from engine.actions import Action
from engine.ai import Player

if TYPE_CHECKING:
    from bot.table import Table

log = logging.getLogger(__name__)
SLOW_LEVELS = frozenset({"hard"})
"""AI levels whose decisions are made in a worker thread (the others take well under 1 ms)."""
WORKERS = 1
"""Threads thinking at once. More would not think faster (the search holds the GIL) but
would take more turns from the event loop: one thread keeps the loop's wait short."""


@dataclass(frozen=True)
class Decision:
    """A slow AI seat's pending choice, and where the table stood when it was asked."""

    chat: str
    hand: int
    turn: int
    seat: int
    player: Player
    view: Any
    legal: tuple[Action, ...]
    game: str = ""
    level: str = ""
    """The game and the seat's level, as the figures label its decision time."""

    def decide(self) -> Action:
        """The player's choice (in a worker thread), timed."""
        with metrics.deciding(self.game, self.level):
            return self.player.decide(self.view, self.legal)

    def still_current(self, table: Table) -> bool:
        return (
            table.hand is not None and not table.hand.over and not table.safe_mode
            and not table.paused and table.hand_number == self.hand
            and table.turn_count == self.turn and table.turn_seat == self.seat
        )  # fmt: skip


Decided = Callable[[Decision, Action | None], Awaitable[None]]
"""Applies a decision that came back (None: deciding raised; the table contains it)."""


class Thinking:
    """The decisions being made in worker threads, one per table at most."""

    def __init__(self, decided: Decided) -> None:
        self.decided = decided
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self._workers: ThreadPoolExecutor | None = None

    def busy(self, chat: str) -> bool:
        return chat in self.tasks

    def start(self, decision: Decision) -> None:
        task = asyncio.create_task(self._think(decision))
        self.tasks[decision.chat] = task
        task.add_done_callback(lambda _: self.tasks.pop(decision.chat, None))

    async def _think(self, decision: Decision) -> None:
        if self._workers is None:
            self._workers = ThreadPoolExecutor(WORKERS, thread_name_prefix="ai-thinking")
        loop = asyncio.get_running_loop()
        try:
            action: Action | None = await loop.run_in_executor(self._workers, decision.decide)
        except Exception:
            log.exception("table %s: an AI decision failed", decision.chat)
            action = None
        await self.decided(decision, action)

    async def settle(self) -> None:
        """Until every decision under way has come back and been applied."""
        while self.tasks:
            await asyncio.gather(*self.tasks.values(), return_exceptions=True)
