"""The bot's SQLite database (aiosqlite, WAL): tables, seats, hand records, ledger, stats.

Nothing outside this package writes SQL. Hand records are append-only: a hand row holds what
the hand started from (rules, deal, first player, carry) and each accepted action is one row
of ``actions``; a restart rebuilds every open table by replaying them.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import aiosqlite

MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE tables (
        chat TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        state TEXT NOT NULL,
        settings TEXT NOT NULL,
        updated REAL NOT NULL
    );
    CREATE TABLE hands (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        chat TEXT NOT NULL,
        match TEXT NOT NULL,
        number INTEGER NOT NULL,
        start TEXT NOT NULL,
        result TEXT,
        started REAL NOT NULL,
        UNIQUE (chat, match, number)
    );
    CREATE TABLE actions (
        hand INTEGER NOT NULL REFERENCES hands(id),
        seq INTEGER NOT NULL,
        action TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (hand, seq)
    );
    CREATE TABLE ledger (
        chat TEXT NOT NULL,
        hand INTEGER NOT NULL REFERENCES hands(id),
        user TEXT NOT NULL,
        name TEXT NOT NULL,
        amount TEXT NOT NULL,
        first_out INTEGER NOT NULL DEFAULT 0,
        bonus_units TEXT NOT NULL DEFAULT '0'
    );
    CREATE INDEX ledger_user ON ledger(user);
    CREATE INDEX ledger_chat ON ledger(chat);
    CREATE TABLE players (
        user TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        lang TEXT
    );
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    """,
    # 2: players a platform lets the bot message first (on Telegram: who opened the bot).
    """
    ALTER TABLE players ADD COLUMN reachable INTEGER NOT NULL DEFAULT 0;
    """,
    # 3: a table's timer apart from its settings, so a step that only moves the turn writes
    # three numbers rather than the whole settings (saved_at NULL: the settings are current).
    """
    ALTER TABLE tables ADD COLUMN deadline REAL;
    ALTER TABLE tables ADD COLUMN turn_count INTEGER;
    ALTER TABLE tables ADD COLUMN saved_at REAL;
    """,
)


SAVE_TABLE = (
    "INSERT INTO tables (chat, game, state, settings, updated) VALUES (?, ?, ?, ?, ?)"
    " ON CONFLICT(chat) DO UPDATE SET game=excluded.game, state=excluded.state,"
    " settings=excluded.settings, updated=excluded.updated, deadline=NULL, turn_count=NULL,"
    " saved_at=NULL"
)
"""A whole table: its settings carry the timer too, so the separate timer is cleared."""


@dataclass(frozen=True)
class StoredHand:
    id: int
    number: int
    start: dict[str, Any]
    actions: list[dict[str, Any]]
    result: dict[str, Any] | None


@dataclass(frozen=True)
class StoredTable:
    chat: str
    game: str
    state: str
    settings: dict[str, Any]
    updated: float


class Database:
    """One connection to the bot's SQLite file (``:memory:`` works for tests)."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection
        self.writing = asyncio.Lock()
        """Held by whoever builds a transaction (one connection: a commit commits everything
        written on it), so one writer's commit never takes in another's half-written step."""

    @classmethod
    async def open(cls, path: str) -> Database:
        connection = await aiosqlite.connect(path)
        await connection.execute("PRAGMA journal_mode=WAL")
        await connection.execute("PRAGMA synchronous=NORMAL")
        await connection.execute("PRAGMA foreign_keys=ON")
        database = cls(connection)
        await database._migrate()
        return database

    async def close(self) -> None:
        await self._db.close()

    async def _migrate(self) -> None:
        await self._db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER)")
        async with self._db.execute("SELECT version FROM schema_version") as cursor:
            row = await cursor.fetchone()
        version = row[0] if row else 0
        for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
            await self._db.executescript(script)
            await self._db.execute("DELETE FROM schema_version")
            await self._db.execute("INSERT INTO schema_version VALUES (?)", (number,))
        await self._db.commit()

    async def schema_version(self) -> int:
        async with self._db.execute("SELECT version FROM schema_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    # ----------------------------------------------------------------- tables

    async def commit(self) -> None:
        await self._db.commit()

    async def save_table(
        self, chat: str, game: str, state: str, settings: dict[str, Any], commit: bool = True
    ) -> None:
        await self._db.execute(
            SAVE_TABLE,
            (chat, game, state, json.dumps(settings, ensure_ascii=False), time.time()),
        )
        if commit:
            await self._db.commit()

    async def save_tables(self, rows: Sequence[tuple[str, str, str, dict[str, Any]]]) -> None:
        """Many tables' snapshots in one statement (not committed: part of a batch)."""
        now = time.time()
        await self._db.executemany(
            SAVE_TABLE,
            [(chat, game, state, json.dumps(settings, ensure_ascii=False), now)
             for chat, game, state, settings in rows],
        )  # fmt: skip

    async def save_timers(self, rows: Sequence[tuple[str, float | None, int, float]]) -> None:
        """Many tables' timers — (chat, deadline, turn count, saved at) — in one statement,
        for steps that changed nothing else about the table (not committed)."""
        await self._db.executemany(
            "UPDATE tables SET deadline = ?, turn_count = ?, saved_at = ?, updated = ?"
            " WHERE chat = ?",
            [(deadline, turns, saved, saved, chat) for chat, deadline, turns, saved in rows],
        )

    async def append_many(self, rows: Sequence[tuple[int, int, dict[str, Any]]]) -> None:
        """Actions of many hands, (hand, seq, action), in one statement (not committed)."""
        now = time.time()
        await self._db.executemany(
            "INSERT INTO actions (hand, seq, action, at) VALUES (?, ?, ?, ?)",
            [(hand, seq, json.dumps(a, ensure_ascii=False), now) for hand, seq, a in rows],
        )

    async def open_tables(self) -> list[StoredTable]:
        async with self._db.execute(
            "SELECT chat, game, state, settings, updated, deadline, turn_count, saved_at"
            " FROM tables WHERE state != 'closed'"
        ) as cursor:
            rows = await cursor.fetchall()
        tables = []
        for chat, game, state, settings, updated, deadline, turns, saved_at in rows:
            data = json.loads(settings)
            if saved_at is not None:  # the timer moved on after the settings were saved
                data.update(deadline=deadline, turn_count=turns, saved_at=saved_at)
            tables.append(StoredTable(chat, game, state, data, updated))
        return tables

    # ----------------------------------------------------------------- hands

    async def start_hand(
        self, chat: str, match: str, number: int, start: dict[str, Any], commit: bool = True
    ) -> int:
        cursor = await self._db.execute(
            "INSERT INTO hands (chat, match, number, start, started) VALUES (?, ?, ?, ?, ?)",
            (chat, match, number, json.dumps(start, ensure_ascii=False), time.time()),
        )
        if commit:
            await self._db.commit()
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    async def append_actions(
        self, hand: int, first_seq: int, actions: Sequence[dict[str, Any]], commit: bool = True
    ) -> None:
        """Append accepted actions (committed before anything about them is sent)."""
        now = time.time()
        await self._db.executemany(
            "INSERT INTO actions (hand, seq, action, at) VALUES (?, ?, ?, ?)",
            [(hand, first_seq + i, json.dumps(a, ensure_ascii=False), now)
             for i, a in enumerate(actions)],
        )  # fmt: skip
        if commit:
            await self._db.commit()

    async def finish_hand(
        self,
        hand: int,
        chat: str,
        result: dict[str, Any],
        ledger: Sequence[tuple[str, str, str, bool, str]],
        commit: bool = True,
    ) -> None:
        """Store a hand's result and its ledger lines (user, name, amount, first out, bonus)."""
        await self._db.execute(
            "UPDATE hands SET result = ? WHERE id = ?",
            (json.dumps(result, ensure_ascii=False), hand),
        )
        await self._db.executemany(
            "INSERT INTO ledger (chat, hand, user, name, amount, first_out, bonus_units)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(chat, hand, u, n, a, int(f), b) for u, n, a, f, b in ledger],
        )
        if commit:
            await self._db.commit()

    async def hands_of(
        self, chat: str, match: str | None = None, since_number: int = 0
    ) -> list[StoredHand]:
        """The hands of a chat (of one match, when given), oldest first."""
        async with self._db.execute(
            "SELECT id, number, start, result FROM hands WHERE chat = ? AND number >= ?"
            " AND (? IS NULL OR match = ?) ORDER BY id",
            (chat, since_number, match, match),
        ) as cursor:
            rows = await cursor.fetchall()
        hands = []
        for hand_id, number, start, result in rows:
            async with self._db.execute(
                "SELECT action FROM actions WHERE hand = ? ORDER BY seq", (hand_id,)
            ) as cursor:
                actions = [json.loads(r[0]) for r in await cursor.fetchall()]
            hands.append(
                StoredHand(
                    hand_id,
                    number,
                    json.loads(start),
                    actions,
                    json.loads(result) if result else None,
                )
            )
        return hands

    # ----------------------------------------------------------------- players, stats

    async def set_player(self, user: str, name: str, lang: str | None = None) -> None:
        async with self.writing:
            await self._db.execute(
                "INSERT INTO players (user, name, lang) VALUES (?, ?, ?) ON CONFLICT(user)"
                " DO UPDATE SET name=excluded.name, lang=COALESCE(excluded.lang, players.lang)",
                (user, name, lang),
            )
            await self._db.commit()

    async def set_reachable(self, user: str, name: str) -> None:
        async with self.writing:
            await self._db.execute(
                "INSERT INTO players (user, name, reachable) VALUES (?, ?, 1) ON CONFLICT(user)"
                " DO UPDATE SET reachable=1",
                (user, name),
            )
            await self._db.commit()

    async def reachable_users(self, prefix: str) -> set[str]:
        """The players whose id starts with ``prefix`` who can be messaged privately."""
        async with self._db.execute(
            "SELECT user FROM players WHERE reachable = 1 AND substr(user, 1, ?) = ?",
            (len(prefix), prefix),
        ) as cursor:
            return {row[0] for row in await cursor.fetchall()}

    async def player_lang(self, user: str) -> str | None:
        async with self._db.execute("SELECT lang FROM players WHERE user = ?", (user,)) as c:
            row = await c.fetchone()
        return row[0] if row else None

    async def player_stats(self, user: str) -> dict[str, Any]:
        async with self._db.execute(
            "SELECT amount, first_out, bonus_units FROM ledger WHERE user = ?", (user,)
        ) as cursor:
            rows = await cursor.fetchall()
        amounts = [Fraction(r[0]) for r in rows]
        return {
            "hands": len(rows),
            "wins": sum(1 for a in amounts if a > 0),
            "total": str(sum(amounts, Fraction(0))),
            "first_out": sum(r[1] for r in rows),
            "bonus_hands": sum(1 for r in rows if Fraction(r[2]) > 0),
        }

    async def leaderboard(self, chat: str, limit: int = 10) -> list[tuple[str, str]]:
        async with self._db.execute(
            "SELECT user, name, amount FROM ledger WHERE chat = ?", (chat,)
        ) as cursor:
            rows = await cursor.fetchall()
        totals: dict[str, Fraction] = {}
        names: dict[str, str] = {}
        for user, name, amount in rows:
            totals[user] = totals.get(user, Fraction(0)) + Fraction(amount)
            names[user] = name
        ranked = sorted(totals.items(), key=lambda item: item[1], reverse=True)[:limit]
        return [(names[user], str(total)) for user, total in ranked]

    async def set_meta(self, key: str, value: str) -> None:
        async with self.writing:
            await self._db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE"
                " SET value=excluded.value",
                (key, value),
            )
            await self._db.commit()

    async def meta(self, key: str) -> str | None:
        async with self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)) as cursor:
            row = await cursor.fetchone()
        return row[0] if row else None
