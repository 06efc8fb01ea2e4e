"""Table leases on SQLite (`storage.leases`): one file is one machine's, so several processes
sharing it is for tests and a single host; PostgreSQL is the back end for several machines."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import Any

import aiosqlite

from storage.leases import Lease, LeaseReads, LeaseWrites

CLAIM = (
    "INSERT INTO leases (chat, owner, address, expires) VALUES (?, ?, ?, ?)"
    " ON CONFLICT(chat) DO UPDATE SET owner = excluded.owner, address = excluded.address,"
    " expires = excluded.expires,"
    " wanted_by = CASE WHEN leases.owner = excluded.owner THEN leases.wanted_by END,"
    " wanted_address = CASE WHEN leases.owner = excluded.owner THEN leases.wanted_address END"
    " WHERE leases.owner = excluded.owner OR leases.expires <= ?"
)


def placeholders(count: int) -> str:
    return ", ".join("?" * count)


class SqliteLeaseWrites(LeaseWrites):
    @property
    @abstractmethod
    def _db(self) -> aiosqlite.Connection:
        """The transaction's connection."""

    async def _rows(self, sql: str, parameters: Sequence[Any]) -> list[Any]:
        async with self._db.execute(sql, parameters) as cursor:
            return list(await cursor.fetchall())

    async def claim(self, chat: str, owner: str, address: str, now: float, until: float) -> Lease:
        await self._db.execute(CLAIM, (chat, owner, address, until, now))
        rows = await self._rows(
            "SELECT chat, owner, address, expires FROM leases WHERE chat = ?", (chat,)
        )
        return Lease(*rows[0])

    async def renew(self, owner: str, now: float, until: float) -> set[str]:
        rows = await self._rows(
            "UPDATE leases SET expires = ? WHERE owner = ? AND expires > ? RETURNING chat",
            (until, owner, now),
        )
        return {row[0] for row in rows}

    async def _renew_these(self, owner: str, chats: set[str], now: float, until: float) -> set[str]:
        rows = await self._rows(
            "UPDATE leases SET expires = ? WHERE owner = ? AND expires > ?"
            f" AND chat IN ({placeholders(len(chats))}) RETURNING chat",
            (until, owner, now, *chats),
        )
        return {row[0] for row in rows}

    async def ask_for(self, chat: str, asker: str, address: str) -> None:
        await self._db.execute(
            "UPDATE leases SET wanted_by = ?, wanted_address = ? WHERE chat = ? AND owner != ?",
            (asker, address, chat, asker),
        )

    async def hand_over(self, owner: str, now: float, until: float) -> list[str]:
        rows = await self._rows(
            "UPDATE leases SET owner = wanted_by, address = wanted_address, expires = ?,"
            " wanted_by = NULL, wanted_address = NULL"
            " WHERE owner = ? AND wanted_by IS NOT NULL AND expires > ? RETURNING chat",
            (until, owner, now),
        )
        return sorted(row[0] for row in rows)

    async def release(self, owner: str, chats: Sequence[str]) -> None:
        if chats:
            await self._db.execute(
                f"DELETE FROM leases WHERE owner = ? AND chat IN ({placeholders(len(chats))})",
                (owner, *chats),
            )


class SqliteLeaseReads(LeaseReads):
    @abstractmethod
    async def _all(self, sql: str, parameters: tuple[Any, ...] = ()) -> list[Any]: ...

    async def leases_of(self, chats: Sequence[str], now: float) -> dict[str, Lease]:
        if not chats:
            return {}
        rows = await self._all(
            "SELECT chat, owner, address, expires FROM leases WHERE expires > ?"
            f" AND chat IN ({placeholders(len(chats))})",
            (now, *chats),
        )
        return {row[0]: Lease(*row) for row in rows}

    async def orphaned_tables(self, now: float) -> list[str]:
        rows = await self._all(
            "SELECT tables.chat FROM tables LEFT JOIN leases ON leases.chat = tables.chat"
            " WHERE tables.state != 'closed' AND (leases.chat IS NULL OR leases.expires <= ?)"
            " ORDER BY tables.chat",
            (now,),
        )
        return [row[0] for row in rows]

    async def tables_mentioning(self, text: str) -> list[tuple[str, str, str]]:
        rows = await self._all(
            "SELECT chat, state, settings FROM tables WHERE state != 'closed'"
            " AND instr(settings, ?) > 0",
            (text,),
        )
        return [(row[0], row[1], row[2]) for row in rows]
