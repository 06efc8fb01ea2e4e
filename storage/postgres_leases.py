"""Table leases on PostgreSQL (`storage.leases`), for several bot processes on one database.

Two processes claiming the same run-out lease at once: the upsert locks the row, the second
waits for the first to commit, then finds the lease in force and takes nothing."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence

import asyncpg
import asyncpg.pool

from storage.leases import Lease, LeaseReads, LeaseWrites

CLAIM = (
    "INSERT INTO leases (chat, owner, address, expires) VALUES ($1, $2, $3, $4)"
    " ON CONFLICT (chat) DO UPDATE SET owner = EXCLUDED.owner, address = EXCLUDED.address,"
    " expires = EXCLUDED.expires,"
    " wanted_by = CASE WHEN leases.owner = EXCLUDED.owner THEN leases.wanted_by END,"
    " wanted_address = CASE WHEN leases.owner = EXCLUDED.owner THEN leases.wanted_address END"
    " WHERE leases.owner = EXCLUDED.owner OR leases.expires <= $5"
)


class PostgresLeaseWrites(LeaseWrites):
    @property
    @abstractmethod
    def _db(self) -> asyncpg.pool.PoolConnectionProxy[asyncpg.Record]:
        """The transaction's connection."""

    async def claim(self, chat: str, owner: str, address: str, now: float, until: float) -> Lease:
        await self._db.execute(CLAIM, chat, owner, address, until, now)
        row = await self._db.fetchrow(
            "SELECT chat, owner, address, expires FROM leases WHERE chat = $1", chat
        )
        assert row is not None
        return Lease(*row)

    async def renew(self, owner: str, now: float, until: float) -> set[str]:
        rows = await self._db.fetch(
            "UPDATE leases SET expires = $1 WHERE owner = $2 AND expires > $3 RETURNING chat",
            until,
            owner,
            now,
        )
        return {row[0] for row in rows}

    async def _renew_these(self, owner: str, chats: set[str], now: float, until: float) -> set[str]:
        rows = await self._db.fetch(
            "UPDATE leases SET expires = $1 WHERE owner = $2 AND expires > $3"
            " AND chat = ANY($4::text[]) RETURNING chat",
            until,
            owner,
            now,
            list(chats),
        )
        return {row[0] for row in rows}

    async def ask_for(self, chat: str, asker: str, address: str) -> None:
        await self._db.execute(
            "UPDATE leases SET wanted_by = $1, wanted_address = $2 WHERE chat = $3 AND owner != $1",
            asker,
            address,
            chat,
        )

    async def hand_over(self, owner: str, now: float, until: float) -> list[str]:
        rows = await self._db.fetch(
            "UPDATE leases SET owner = wanted_by, address = wanted_address, expires = $1,"
            " wanted_by = NULL, wanted_address = NULL"
            " WHERE owner = $2 AND wanted_by IS NOT NULL AND expires > $3 RETURNING chat",
            until,
            owner,
            now,
        )
        return sorted(row[0] for row in rows)

    async def release(self, owner: str, chats: Sequence[str]) -> None:
        if chats:
            await self._db.execute(
                "DELETE FROM leases WHERE owner = $1 AND chat = ANY($2::text[])",
                owner,
                list(chats),
            )


class PostgresLeaseReads(LeaseReads):
    _pool: asyncpg.Pool[asyncpg.Record]

    async def leases_of(self, chats: Sequence[str], now: float) -> dict[str, Lease]:
        if not chats:
            return {}
        rows = await self._pool.fetch(
            "SELECT chat, owner, address, expires FROM leases WHERE expires > $1"
            " AND chat = ANY($2::text[])",
            now,
            list(chats),
        )
        return {row[0]: Lease(*row) for row in rows}

    async def orphaned_tables(self, now: float) -> list[str]:
        rows = await self._pool.fetch(
            "SELECT tables.chat FROM tables LEFT JOIN leases ON leases.chat = tables.chat"
            " WHERE tables.state != 'closed' AND (leases.chat IS NULL OR leases.expires <= $1)"
            ' ORDER BY tables.chat COLLATE "C"',
            now,
        )
        return [row[0] for row in rows]

    async def tables_mentioning(self, text: str) -> list[tuple[str, str, str]]:
        rows = await self._pool.fetch(
            "SELECT chat, state, settings FROM tables WHERE state != 'closed'"
            " AND strpos(settings, $1) > 0",
            text,
        )
        return [(row[0], row[1], row[2]) for row in rows]
