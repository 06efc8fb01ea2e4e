"""What a process following a table another process holds reads of it, on PostgreSQL
(`bot.page_questions`): the actions stored since its copy was last moved on."""

from __future__ import annotations

import asyncpg

from storage.base import JsonObject, from_json


class PostgresCopyReads:
    _pool: asyncpg.Pool[asyncpg.Record]

    async def actions_after(self, hand_id: int, seq: int) -> list[JsonObject]:
        rows = await self._pool.fetch(
            "SELECT action FROM actions WHERE hand = $1 AND seq >= $2 ORDER BY seq", hand_id, seq
        )
        return [from_json(row[0]) for row in rows]
