"""Finished hands found again (`storage.hand_lookup`) on PostgreSQL: a hand and its actions
and ledger lines are read in one snapshot, so no action is missing from a hand just read."""

from __future__ import annotations

import asyncpg

from storage.hand_lookup import HandLookups, KeptHand
from storage.row_codec import assemble_hands, from_json
from storage.rows import StoredHand


class PostgresHandLookups(HandLookups):
    _pool: asyncpg.Pool[asyncpg.Record]

    async def hands_of(
        self, chat: str, match: str | None = None, since_number: int = 0
    ) -> list[StoredHand]:
        async with (
            self._pool.acquire() as connection,
            # One snapshot for both queries: no action of a hand that is not in the list.
            connection.transaction(isolation="repeatable_read", readonly=True),
        ):
            hands = await connection.fetch(
                "SELECT id, number, start, result FROM hands WHERE chat = $1 AND number >= $2"
                " AND ($3::text IS NULL OR match = $3) ORDER BY id",
                chat,
                since_number,
                match,
            )
            actions = await connection.fetch(
                "SELECT hand, action FROM actions WHERE hand = ANY($1::bigint[])"
                " ORDER BY hand, seq",
                [row["id"] for row in hands],
            )
        return assemble_hands(
            [tuple(row) for row in hands], [(row["hand"], row["action"]) for row in actions]
        )

    async def kept_hand(self, hand_id: int) -> KeptHand | None:
        async with (
            self._pool.acquire() as connection,
            connection.transaction(isolation="repeatable_read", readonly=True),
        ):
            row = await connection.fetchrow(
                "SELECT id, chat, match, number, start, result FROM hands WHERE id = $1", hand_id
            )
            if row is None:
                return None
            actions = await connection.fetch(
                "SELECT action FROM actions WHERE hand = $1 ORDER BY seq", hand_id
            )
            players = await connection.fetch(
                "SELECT user_id, name FROM ledger WHERE hand = $1 ORDER BY id", hand_id
            )
        return KeptHand(
            row["id"],
            row["chat"],
            row["match"],
            row["number"],
            from_json(row["start"]),
            [from_json(action[0]) for action in actions],
            None if row["result"] is None else from_json(row["result"]),
            tuple(player[0] for player in players),
            tuple(player[1] for player in players),
        )

    async def hands_numbered(self, chat: str, number: int) -> list[tuple[int, str]]:
        rows = await self._pool.fetch(
            "SELECT id, match FROM hands WHERE chat = $1 AND number = $2 ORDER BY id", chat, number
        )
        return [(row["id"], row["match"]) for row in rows]

    async def hands_played(self, user: str, limit: int) -> list[int]:
        rows = await self._pool.fetch(
            "SELECT DISTINCT hand FROM ledger WHERE user_id = $1 ORDER BY hand DESC LIMIT $2",
            user,
            limit,
        )
        return [row["hand"] for row in rows]
