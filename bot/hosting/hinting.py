"""Hints thought out with the table's lock let go: a hint asked at a table
(`bot.table.hint_answers.ask`) is worked out by the AI workers (`Hints.give`: no other command
of the table, nor any other table, waits for it), then answered under the lock again if the
table is still where it was (`bot.table.hint_answers.answer`)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.ai_seats.worker_pool import AiWorkers
from bot.i18n import t
from bot.ops.logs import table_context
from bot.reading.command import Command
from bot.table.hint_answers import HINT_LEVEL, NO_HINT, Advice, answer, hint_job
from bot.table.hint_book import HintAsked
from bot.views.outgoing import Kind, Outgoing

if TYPE_CHECKING:
    from bot.hosting.keeping import TableKeeper
    from bot.hosting.open_tables import OpenTables

Contain = Callable[[str, Command | None], Awaitable[list[Outgoing]]]
"""Puts a table whose step raised back as stored (`bot.hosting.faults.Faults.contain`)."""
log = logging.getLogger(__name__)


class Hints:
    """Thinks hints out on the AI workers, then answers them at their table."""

    def __init__(
        self, tables: OpenTables, workers: AiWorkers, keeper: TableKeeper, contain: Contain
    ) -> None:
        self.tables = tables
        self.workers = workers
        self.keeper = keeper
        self.contain = contain

    async def give(self, asked: HintAsked) -> list[Outgoing]:
        """The hint's answer, once thought out (the table's lock is not held meanwhile)."""
        try:
            advice: Advice = await self.workers.consult(
                hint_job, asked.game, HINT_LEVEL, asked.view, asked.legal
            )
        except Exception:  # a failed search changes nothing at the table: say so, once
            log.exception("table %s: a hint could not be worked out", asked.chat)
            text = t(asked.lang, NO_HINT)
            return [Outgoing(Kind.REPLY, asked.chat, text, user=asked.user, public=True)]
        async with self.tables.lock(asked.chat), table_context(asked.chat):
            table = self.tables.get(asked.chat)
            if table is None:
                return []
            try:
                effects = answer(table, asked, advice)
                await self.keeper.store_step(table, effects)
            except Exception:
                return await self.contain(asked.chat, None)
        return effects.out
