"""The quick queues on PostgreSQL (`storage.quick_queue`), for several processes: a queue's
rows are claimed ``FOR UPDATE SKIP LOCKED``, so two processes matching one queue at once
each take only rows the other has not (never the same person twice), and wait for nothing."""

from __future__ import annotations

import json
from abc import abstractmethod
from collections.abc import Sequence

import asyncpg
import asyncpg.pool

from storage.quick_queue import QueueEntry, QuickReads, QuickWrites

COLUMNS = "user_id, game, preset, mu, since, accepts_ai, lang"


class PostgresQuickWrites(QuickWrites):
    @property
    @abstractmethod
    def _db(self) -> asyncpg.pool.PoolConnectionProxy[asyncpg.Record]:
        """The transaction's connection."""

    async def join_queue(self, entry: QueueEntry) -> bool:
        added = await self._db.fetchval(
            f"INSERT INTO quick_queue ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)"
            " ON CONFLICT (user_id) DO NOTHING RETURNING 1",
            entry.user,
            entry.game,
            entry.preset,
            entry.mu,
            entry.since,
            entry.accepts_ai,
            entry.lang,
        )
        return added is not None

    async def leave_queue(self, user: str) -> bool:
        gone = await self._db.fetchval(
            "DELETE FROM quick_queue WHERE user_id = $1 RETURNING 1", user
        )
        return gone is not None

    async def claim_waiting(
        self, game: str, preset: str, platforms: frozenset[str] | None = None
    ) -> list[QueueEntry]:
        rows = await self._db.fetch(
            f"SELECT {COLUMNS} FROM quick_queue WHERE game = $1 AND preset = $2"
            " AND ($3::text[] IS NULL OR"
            " (CASE WHEN strpos(user_id, ':') > 0 THEN split_part(user_id, ':', 1) ELSE '' END)"
            " = ANY($3::text[]))"
            ' ORDER BY since, user_id COLLATE "C" FOR UPDATE SKIP LOCKED',
            game,
            preset,
            None if platforms is None else sorted(platforms),
        )
        return [QueueEntry(*row) for row in rows]

    async def block(self, user: str, blocked: str, at: float) -> bool:
        added = await self._db.fetchval(
            "INSERT INTO blocks (user_id, blocked, at) VALUES ($1, $2, $3)"
            " ON CONFLICT (user_id, blocked) DO NOTHING RETURNING 1",
            user,
            blocked,
            at,
        )
        return added is not None

    async def note_leave(self, user: str, at: float) -> None:
        await self._db.execute("INSERT INTO leaves (user_id, at) VALUES ($1, $2)", user, at)

    async def report(self, user: str, chat: str, hand: int, note: str, at: float) -> None:
        await self._db.execute(
            "INSERT INTO reports (user_id, chat, hand, note, at) VALUES ($1, $2, $3, $4, $5)",
            user,
            chat,
            hand,
            note,
            at,
        )

    async def seat(self, chat: str, entries: Sequence[QueueEntry], at: float) -> None:
        users = [seated.user for seated in entries]
        await self._db.execute("DELETE FROM quick_queue WHERE user_id = ANY($1::text[])", users)
        first = entries[0]
        await self._db.execute(
            "INSERT INTO quick_tables (chat, game, preset, users, opened)"
            " VALUES ($1, $2, $3, $4, $5)",
            chat,
            first.game,
            first.preset,
            json.dumps(users),
            at,
        )


class PostgresQuickReads(QuickReads):
    _pool: asyncpg.Pool[asyncpg.Record]

    async def queue_entry(self, user: str) -> QueueEntry | None:
        row = await self._pool.fetchrow(
            f"SELECT {COLUMNS} FROM quick_queue WHERE user_id = $1", user
        )
        return None if row is None else QueueEntry(*row)

    async def waiting_in(self, game: str, preset: str) -> int:
        count = await self._pool.fetchval(
            "SELECT count(*) FROM quick_queue WHERE game = $1 AND preset = $2", game, preset
        )
        return int(count or 0)

    async def blocks_among(self, users: Sequence[str]) -> set[tuple[str, str]]:
        rows = await self._pool.fetch(
            "SELECT user_id, blocked FROM blocks WHERE user_id = ANY($1::text[])"
            " OR blocked = ANY($1::text[])",
            list(users),
        )
        return {(row[0], row[1]) for row in rows}

    async def leaves_since(self, user: str, since: float) -> list[float]:
        rows = await self._pool.fetch(
            "SELECT at FROM leaves WHERE user_id = $1 AND at >= $2 ORDER BY at", user, since
        )
        return [row[0] for row in rows]

    async def last_hand_of(self, user: str) -> tuple[str, int] | None:
        row = await self._pool.fetchrow(
            "SELECT chat, hand FROM ledger WHERE user_id = $1 ORDER BY id DESC LIMIT 1", user
        )
        return None if row is None else (row[0], int(row[1]))

    async def reports(self) -> list[tuple[str, str, int, str, float]]:
        rows = await self._pool.fetch(
            "SELECT user_id, chat, hand, note, at FROM reports ORDER BY id"
        )
        return [(row[0], row[1], row[2], row[3], row[4]) for row in rows]

    async def names_of(self, users: Sequence[str]) -> dict[str, str]:
        rows = await self._pool.fetch(
            "SELECT user_id, name FROM players WHERE user_id = ANY($1::text[])", list(users)
        )
        return {row[0]: row[1] for row in rows}

    async def quick_tables(self, since: float = 0.0) -> list[tuple[str, tuple[str, ...]]]:
        rows = await self._pool.fetch(
            "SELECT chat, users FROM quick_tables WHERE opened >= $1"
            ' ORDER BY opened, chat COLLATE "C"',
            since,
        )
        return [(row[0], tuple(json.loads(row[1]))) for row in rows]
