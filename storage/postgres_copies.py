"""What a process following the tables other processes hold reads of them, on PostgreSQL
(`bot.hosting.page_questions`): many tables' rows, and the actions each hand stored since its copy
was last moved on, in one query each however many tables stepped at once."""

from __future__ import annotations

from collections.abc import Sequence

import asyncpg

from storage.row_codec import from_json, table_from_columns
from storage.rows import JsonObject, StoredTable


class PostgresCopyReads:
    _pool: asyncpg.Pool[asyncpg.Record]

    async def open_tables_in(self, chats: Sequence[str]) -> list[StoredTable]:
        rows = await self._pool.fetch(
            "SELECT chat, game, state, settings, updated, deadline, turn_count, saved_at"
            " FROM tables WHERE state != 'closed' AND chat = ANY($1::text[])",
            list(chats),
        )
        return [table_from_columns(*row) for row in rows]

    async def actions_after(self, hand_id: int, seq: int) -> list[JsonObject]:
        return (await self.actions_after_each([(hand_id, seq)]))[hand_id]

    async def actions_after_each(
        self, wanted: Sequence[tuple[int, int]]
    ) -> dict[int, list[JsonObject]]:
        found: dict[int, list[JsonObject]] = {hand: [] for hand, _ in wanted}
        if wanted:
            rows = await self._pool.fetch(
                "SELECT a.hand, a.action FROM actions a"
                " JOIN unnest($1::bigint[], $2::bigint[]) AS w(hand, seq)"
                " ON a.hand = w.hand AND a.seq >= w.seq ORDER BY a.hand, a.seq",
                [hand for hand, _ in wanted],
                [seq for _, seq in wanted],
            )
            for hand, action in rows:
                found[hand].append(from_json(action))
        return found
