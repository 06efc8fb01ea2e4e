"""Fault containment: a table whose step raised is put back as storage last knew it, and
made safer step by step — every seat by 托管, then paused until the host's /resume, then
closed. Other tables never notice."""

from __future__ import annotations

import logging

from bot.hosting.keeping import TableKeeper
from bot.i18n import t
from bot.ops import metrics
from bot.reading.command import Command
from bot.table.dealing import close_match
from bot.views.outgoing import Kind, Outgoing

log = logging.getLogger(__name__)
SAFE_AFTER = 1
"""After this many failed steps a table plays every seat by 托管 (the engine's own choice)."""
PAUSE_AFTER = 3
"""…and after this many it pauses, until the host says /resume."""
CLOSE_AFTER = 5
"""A table that keeps failing is closed, with a message, rather than left to loop."""


class Faults:
    def __init__(self, keeper: TableKeeper) -> None:
        self.keeper = keeper
        self.crashes: dict[str, tuple[int, int]] = {}
        """Failed steps per table: (the hand they happened in, how many); a new hand starts
        the count again."""

    async def contain(self, chat: str, command: Command | None) -> list[Outgoing]:
        """A step of this table raised: log it once with the table and its trace, put the
        table back as storage last knew it, one step safer. Returns what to send."""
        log.exception("table %s: a step failed (%s)", chat, command.name if command else "timer")
        before = self.keeper.tables.get(chat)
        metrics.step_failed(chat, before.game if before is not None else None)
        number = before.hand_number if before is not None else 0
        hand, crashes = self.crashes.get(chat, (number, 0))
        crashes = crashes + 1 if hand == number else 1
        self.crashes[chat] = (number, crashes)
        out: list[Outgoing] = []
        try:
            table = await self.keeper.reload(chat)
        except Exception:
            log.exception("table %s: could not be reloaded; it is closed", chat)
            self.keeper.tables.pop(chat)
            return out
        if table is None:
            return out
        if command is not None:
            text = t(table.answer_lang(command), "Something went wrong; nothing was changed.")
            out.append(Outgoing(Kind.REPLY, chat, text, user=command.user))
        if crashes >= CLOSE_AFTER:
            out.append(table.group("This table kept failing and is closed."))
            effects = close_match(table)
            await self.keeper.store_step(table, effects)
            return out + effects.out
        table.set_safe_mode(crashes >= SAFE_AFTER)
        if crashes >= PAUSE_AFTER and table.deadline is not None:
            table.pause()
            out.append(table.group("This table hit an error and is paused; the host can /resume."))
        return out

    def forget(self, chat: str) -> None:
        self.crashes.pop(chat, None)
