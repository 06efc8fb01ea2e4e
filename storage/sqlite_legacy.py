"""The write methods the table manager used before ``Database.transaction()``, kept on the
SQLite back end only until ``bot/manager.py`` and its tests are ported; then delete this module.

Their caller holds ``writing`` (the same lock ``transaction()`` takes), writes with
``commit=False`` and calls ``commit()`` once per step.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from storage.base import ActionRow, LedgerLine, TableRow, TimerRow, Transaction

TableTuple = tuple[str, str, str, dict[str, Any]]
"""(chat, game, state, settings)"""

TimerTuple = tuple[str, float | None, int, float]
"""(chat, deadline, turn count, saved at)"""

LedgerTuple = tuple[str, str, str, bool, str]
"""(user, name, amount, first out, bonus)"""


class LegacySqliteWrites(ABC):
    _one_writer: asyncio.Lock

    @property
    def writing(self) -> asyncio.Lock:
        """The writer lock of ``Database.transaction()``, for callers that commit by hand."""
        return self._one_writer

    @abstractmethod
    def _unlocked_writes(self) -> Transaction:
        """Writes on the connection that neither take the lock nor commit."""

    @abstractmethod
    async def commit(self) -> None: ...

    async def save_table(
        self, chat: str, game: str, state: str, settings: dict[str, Any], commit: bool = True
    ) -> None:
        await self._unlocked_writes().save_tables([TableRow(chat, game, state, settings)])
        if commit:
            await self.commit()

    async def save_tables(self, rows: Sequence[TableTuple]) -> None:
        await self._unlocked_writes().save_tables([TableRow(*row) for row in rows])

    async def save_timers(self, rows: Sequence[TimerTuple]) -> None:
        await self._unlocked_writes().save_timers([TimerRow(*row) for row in rows])

    async def append_many(self, rows: Sequence[tuple[int, int, dict[str, Any]]]) -> None:
        await self._unlocked_writes().append_actions([ActionRow(*row) for row in rows])

    async def append_actions(
        self, hand: int, first_seq: int, actions: Sequence[dict[str, Any]], commit: bool = True
    ) -> None:
        rows = [ActionRow(hand, first_seq + i, action) for i, action in enumerate(actions)]
        await self._unlocked_writes().append_actions(rows)
        if commit:
            await self.commit()

    async def start_hand(
        self, chat: str, match: str, number: int, start: dict[str, Any], commit: bool = True
    ) -> int:
        hand_id = await self._unlocked_writes().start_hand(chat, match, number, start)
        if commit:
            await self.commit()
        return hand_id

    async def finish_hand(
        self,
        hand: int,
        chat: str,
        result: dict[str, Any],
        ledger: Sequence[LedgerTuple],
        commit: bool = True,
    ) -> None:
        lines = [LedgerLine(*line) for line in ledger]
        await self._unlocked_writes().finish_hand(hand, chat, result, lines)
        if commit:
            await self.commit()
