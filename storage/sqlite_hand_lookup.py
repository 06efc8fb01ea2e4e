"""Finished hands found again (`storage.hand_lookup`) on SQLite."""

from __future__ import annotations

from abc import abstractmethod
from typing import Any

from storage.hand_lookup import HandLookups, KeptHand
from storage.row_codec import from_json


class SqliteHandLookups(HandLookups):
    @abstractmethod
    async def _all(self, sql: str, parameters: tuple[Any, ...] = ()) -> list[Any]: ...

    async def kept_hand(self, hand_id: int) -> KeptHand | None:
        rows = await self._all(
            "SELECT id, chat, match, number, start, result FROM hands WHERE id = ?", (hand_id,)
        )
        if not rows:
            return None
        found, chat, match, number, start, result = rows[0]
        actions = await self._all(
            "SELECT action FROM actions WHERE hand = ? ORDER BY seq", (hand_id,)
        )
        players = await self._all(
            "SELECT user, name FROM ledger WHERE hand = ? ORDER BY rowid", (found,)
        )
        return KeptHand(
            found,
            chat,
            match,
            number,
            from_json(start),
            [from_json(row[0]) for row in actions],
            None if result is None else from_json(result),
            tuple(row[0] for row in players),
            tuple(row[1] for row in players),
        )

    async def hands_numbered(self, chat: str, number: int) -> list[tuple[int, str]]:
        rows = await self._all(
            "SELECT id, match FROM hands WHERE chat = ? AND number = ? ORDER BY id", (chat, number)
        )
        return [(hand, match) for hand, match in rows]

    async def hands_played(self, user: str, limit: int) -> list[int]:
        rows = await self._all(
            "SELECT DISTINCT hand FROM ledger WHERE user = ? ORDER BY hand DESC LIMIT ?",
            (user, limit),
        )
        return [row[0] for row in rows]
