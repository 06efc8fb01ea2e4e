"""The quick queues on SQLite (`storage.quick_queue`): one process holds the file, and its
writer lock keeps one transaction at a time, so what a transaction claims is its own."""

from __future__ import annotations

import json
from abc import abstractmethod
from collections.abc import Sequence
from typing import Any

import aiosqlite

from storage.platforms_of_users import platform_of
from storage.quick_queue import QueueEntry, QuickReads, QuickWrites

COLUMNS = "user, game, preset, mu, since, accepts_ai, lang"


def entry(row: Any) -> QueueEntry:
    user, game, preset, mu, since, accepts_ai, lang = row
    return QueueEntry(user, game, preset, mu, since, bool(accepts_ai), lang or "")


class SqliteQuickWrites(QuickWrites):
    @property
    @abstractmethod
    def _db(self) -> aiosqlite.Connection:
        """The transaction's connection."""

    async def join_queue(self, entry: QueueEntry) -> bool:
        async with self._db.execute(
            f"INSERT INTO quick_queue ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (user) DO NOTHING",
            (
                entry.user,
                entry.game,
                entry.preset,
                entry.mu,
                entry.since,
                int(entry.accepts_ai),
                entry.lang,
            ),
        ) as cursor:
            return cursor.rowcount == 1

    async def leave_queue(self, user: str) -> bool:
        async with self._db.execute("DELETE FROM quick_queue WHERE user = ?", (user,)) as cursor:
            return cursor.rowcount == 1

    async def claim_waiting(
        self, game: str, preset: str, platforms: frozenset[str] | None = None
    ) -> list[QueueEntry]:
        async with self._db.execute(
            f"SELECT {COLUMNS} FROM quick_queue WHERE game = ? AND preset = ? ORDER BY since, user",
            (game, preset),
        ) as cursor:
            rows = [entry(row) for row in await cursor.fetchall()]
        # One process holds the file: what it leaves is left for no one else to lock.
        return [row for row in rows if platforms is None or platform_of(row.user) in platforms]

    async def block(self, user: str, blocked: str, at: float) -> bool:
        async with self._db.execute(
            "INSERT INTO blocks (user, blocked, at) VALUES (?, ?, ?)"
            " ON CONFLICT (user, blocked) DO NOTHING",
            (user, blocked, at),
        ) as cursor:
            return cursor.rowcount == 1

    async def note_leave(self, user: str, at: float) -> None:
        await self._db.execute("INSERT INTO leaves (user, at) VALUES (?, ?)", (user, at))

    async def report(self, user: str, chat: str, hand: int, note: str, at: float) -> None:
        await self._db.execute(
            "INSERT INTO reports (user, chat, hand, note, at) VALUES (?, ?, ?, ?, ?)",
            (user, chat, hand, note, at),
        )

    async def seat(self, chat: str, entries: Sequence[QueueEntry], at: float) -> None:
        users = [seated.user for seated in entries]
        await self._db.executemany("DELETE FROM quick_queue WHERE user = ?", [(u,) for u in users])
        first = entries[0]
        await self._db.execute(
            "INSERT INTO quick_tables (chat, game, preset, users, opened) VALUES (?, ?, ?, ?, ?)",
            (chat, first.game, first.preset, json.dumps(users), at),
        )


class SqliteQuickReads(QuickReads):
    @abstractmethod
    async def _all(self, sql: str, parameters: tuple[Any, ...] = ()) -> list[Any]: ...

    async def queue_entry(self, user: str) -> QueueEntry | None:
        rows = await self._all(f"SELECT {COLUMNS} FROM quick_queue WHERE user = ?", (user,))
        return entry(rows[0]) if rows else None

    async def waiting_in(self, game: str, preset: str) -> int:
        rows = await self._all(
            "SELECT count(*) FROM quick_queue WHERE game = ? AND preset = ?", (game, preset)
        )
        return int(rows[0][0])

    async def blocks_among(self, users: Sequence[str]) -> set[tuple[str, str]]:
        if not users:
            return set()
        marks = ", ".join("?" * len(users))
        rows = await self._all(
            f"SELECT user, blocked FROM blocks WHERE user IN ({marks}) OR blocked IN ({marks})",
            (*users, *users),
        )
        return {(row[0], row[1]) for row in rows}

    async def leaves_since(self, user: str, since: float) -> list[float]:
        rows = await self._all(
            "SELECT at FROM leaves WHERE user = ? AND at >= ? ORDER BY at", (user, since)
        )
        return [row[0] for row in rows]

    async def last_hand_of(self, user: str) -> tuple[str, int] | None:
        rows = await self._all(
            "SELECT chat, hand FROM ledger WHERE user = ? ORDER BY rowid DESC LIMIT 1", (user,)
        )
        return (rows[0][0], rows[0][1]) if rows else None

    async def reports(self) -> list[tuple[str, str, int, str, float]]:
        rows = await self._all("SELECT user, chat, hand, note, at FROM reports ORDER BY rowid")
        return [tuple(row) for row in rows]

    async def names_of(self, users: Sequence[str]) -> dict[str, str]:
        if not users:
            return {}
        marks = ", ".join("?" * len(users))
        rows = await self._all(f"SELECT user, name FROM players WHERE user IN ({marks})", (*users,))
        return {row[0]: row[1] for row in rows}

    async def quick_tables(self, since: float = 0.0) -> list[tuple[str, tuple[str, ...]]]:
        rows = await self._all(
            "SELECT chat, users FROM quick_tables WHERE opened >= ? ORDER BY opened, rowid",
            (since,),
        )
        return [(chat, tuple(json.loads(users))) for chat, users in rows]
