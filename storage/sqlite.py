"""The SQLite back end (aiosqlite, WAL): one connection, the default.

One connection means a commit commits everything written on it, so the writer lock in
``Database.transaction()`` is what keeps one step's commit from taking in another's half-written
writes. Reads share the connection: a read made while another task is inside a transaction sees
that transaction's writes before they are committed (as it always has here).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncGenerator, AsyncIterator, Iterable, Sequence
from typing import Any

import aiosqlite

from storage.base import UPDATES_KEPT_FOR, Database, Transaction
from storage.row_codec import (
    assemble_finished,
    assemble_hands,
    dump_row,
    from_json,
    grouped,
    ranking,
    stats_of,
    table_from_columns,
    table_values,
    to_json,
)
from storage.rows import (
    ActionRow,
    DumpRow,
    FinishedHand,
    JsonObject,
    LedgerLine,
    StoredHand,
    StoredTable,
    TableRow,
    TimerRow,
)
from storage.schema import DUMPED, Kind, dumped_columns
from storage.sql_dialects import SQLITE
from storage.sqlite_hand_lookup import SqliteHandLookups
from storage.sqlite_leases import SqliteLeaseReads, SqliteLeaseWrites
from storage.sqlite_quick import SqliteQuickReads, SqliteQuickWrites
from storage.sqlite_ratings import SqliteRatingReads, SqliteRatingWrites

MIGRATIONS: tuple[str, ...] = SQLITE.migrations()


SAVE_TABLE = (
    "INSERT INTO tables (chat, game, state, settings, updated) VALUES (?, ?, ?, ?, ?)"
    " ON CONFLICT(chat) DO UPDATE SET game=excluded.game, state=excluded.state,"
    " settings=excluded.settings, updated=excluded.updated, deadline=NULL, turn_count=NULL,"
    " saved_at=NULL"
)
"""A whole table: its settings carry the timer too, so the separate timer is cleared."""

SAVE_TIMER = (
    "UPDATE tables SET deadline = ?, turn_count = ?, saved_at = ?, updated = ? WHERE chat = ?"
)

APPEND_ACTION = "INSERT INTO actions (hand, seq, action, at) VALUES (?, ?, ?, ?)"

HAND_FILTER = "chat = ? AND number >= ? AND (? IS NULL OR match = ?)"

DUMP = SQLITE.dump_queries()
LOAD = SQLITE.load_statements()

FLAGS = {
    kind: at
    for kind in DUMPED
    for at, column in enumerate(dumped_columns(kind))
    if column.kind is Kind.FLAG
}
"""Where each kind of row has its boolean (an integer column here)."""


class SqliteTransaction(SqliteLeaseWrites, SqliteRatingWrites, SqliteQuickWrites, Transaction):
    """Writes on the connection; committing or rolling back is ``SqliteDatabase._begin``'s."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._connection = connection

    @property
    def _db(self) -> aiosqlite.Connection:
        self._ensure_open()
        return self._connection

    async def save_tables(self, rows: Sequence[TableRow]) -> None:
        now = time.time()
        await self._db.executemany(SAVE_TABLE, table_values(rows, now))

    async def save_timers(self, rows: Sequence[TimerRow]) -> None:
        await self._db.executemany(
            SAVE_TIMER,
            [(r.deadline, r.turn_count, r.saved_at, r.saved_at, r.chat) for r in rows],
        )

    async def append_actions(self, rows: Sequence[ActionRow]) -> None:
        now = time.time()
        await self._db.executemany(
            APPEND_ACTION, [(r.hand_id, r.seq, to_json(r.action), now) for r in rows]
        )

    async def start_hand(self, chat: str, match: str, number: int, start: JsonObject) -> int:
        cursor = await self._db.execute(
            "INSERT INTO hands (chat, match, number, start, started) VALUES (?, ?, ?, ?, ?)",
            (chat, match, number, to_json(start), time.time()),
        )
        assert cursor.lastrowid is not None  # an INSERT into a rowid table always has one
        return cursor.lastrowid

    async def finish_hand(
        self, hand_id: int, chat: str, result: JsonObject, ledger: Sequence[LedgerLine]
    ) -> None:
        await self._db.execute(
            "UPDATE hands SET result = ? WHERE id = ?", (to_json(result), hand_id)
        )
        await self._db.executemany(
            "INSERT INTO ledger (chat, hand, user, name, amount, first_out, bonus_units)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (chat, hand_id, line.user, line.name, line.amount, int(line.first_out), line.bonus)
                for line in ledger
            ],
        )

    async def set_player(self, user: str, name: str, lang: str | None = None) -> None:
        await self._db.execute(
            "INSERT INTO players (user, name, lang) VALUES (?, ?, ?) ON CONFLICT(user)"
            " DO UPDATE SET name=excluded.name, lang=COALESCE(excluded.lang, players.lang)",
            (user, name, lang),
        )

    async def set_reachable(self, user: str, name: str) -> None:
        await self._db.execute(
            "INSERT INTO players (user, name, reachable) VALUES (?, ?, 1) ON CONFLICT(user)"
            " DO UPDATE SET reachable=1",
            (user, name),
        )

    async def set_meta(self, key: str, value: str) -> None:
        await self._db.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE"
            " SET value=excluded.value",
            (key, value),
        )

    async def first_delivery(self, platform: str, update_id: str, now: float) -> bool:
        await self._db.execute(
            "DELETE FROM seen_updates WHERE seen_at < ?", (now - UPDATES_KEPT_FOR,)
        )
        async with self._db.execute(
            "INSERT INTO seen_updates (platform, update_id, seen_at) VALUES (?, ?, ?)"
            " ON CONFLICT (platform, update_id) DO NOTHING",
            (platform, update_id, now),
        ) as cursor:
            return cursor.rowcount == 1

    async def subscribe(self, chat: str, user: str, title: str, now: float) -> None:
        await self._db.execute(
            "INSERT INTO subscriptions (chat, user, title, since) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (chat, user) DO UPDATE SET title = excluded.title",
            (chat, user, title, now),
        )

    async def unsubscribe(self, chat: str, user: str) -> bool:
        cursor = await self._db.execute(
            "DELETE FROM subscriptions WHERE chat = ? AND user = ?", (chat, user)
        )
        return cursor.rowcount == 1

    async def mark_told(self, chat: str, users: Sequence[str], now: float) -> None:
        await self._db.executemany(
            "UPDATE subscriptions SET told_at = ? WHERE chat = ? AND user = ?",
            [(now, chat, user) for user in users],
        )

    async def announce(self, chat: str, user: str, code: str, now: float) -> bool:
        cursor = await self._db.execute(
            "INSERT INTO achievements (chat, user, code, at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (chat, user, code) DO NOTHING",
            (chat, user, code, now),
        )
        return cursor.rowcount == 1

    async def delete_table(self, chat: str) -> None:
        await self._db.execute("DELETE FROM tables WHERE chat = ?", (chat,))

    async def forget_closed_tables(self, closed_before: float, now: float) -> int:
        await self._db.execute(
            "DELETE FROM leases WHERE expires <= ?"
            " AND chat NOT IN (SELECT chat FROM tables WHERE state != 'closed')",
            (now,),
        )
        cursor = await self._db.execute(
            "DELETE FROM tables WHERE state = 'closed' AND updated < ?", (closed_before,)
        )
        return cursor.rowcount

    async def _move_rows(self, table: str, old_chat: str, new_chat: str) -> None:
        await self._db.execute(f"UPDATE {table} SET chat = ? WHERE chat = ?", (new_chat, old_chat))

    async def load(self, rows: Iterable[DumpRow]) -> None:
        for kind, values in grouped(rows):
            if kind in FLAGS:  # booleans are 0 or 1 here
                at = FLAGS[kind]
                values = [(*v[:at], int(bool(v[at])), *v[at + 1 :]) for v in values]
            await self._db.executemany(LOAD[kind], values)


class SqliteDatabase(
    SqliteLeaseReads, SqliteRatingReads, SqliteQuickReads, SqliteHandLookups, Database
):
    """One connection to the bot's SQLite file (``:memory:`` works for tests)."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        super().__init__()
        self._connection = connection

    @classmethod
    async def connect(cls, path: str) -> SqliteDatabase:
        pending = aiosqlite.connect(path)
        try:
            connection = await pending
        except BaseException:
            # aiosqlite stops its worker thread after a failed connect without waiting for it;
            # the thread's last word must reach a loop that is still running.
            await asyncio.to_thread(pending._thread.join, 5)
            raise
        try:
            await connection.execute("PRAGMA journal_mode=WAL")
            await connection.execute("PRAGMA synchronous=NORMAL")
            await connection.execute("PRAGMA foreign_keys=ON")
            database = cls(connection)
            await database._migrate()
        except BaseException:
            await connection.close()
            raise
        return database

    async def close(self) -> None:
        await self._connection.close()

    async def _migrate(self) -> None:
        await self._connection.execute(
            "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER)"
        )
        await self._connection.commit()
        version = await self.schema_version()
        for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
            await self._migrate_to(number, script)

    async def _migrate_to(self, number: int, script: str) -> None:
        """One version's script and its number, in one transaction: a step that fails or is
        cut short (an error, a kill, a full disk) leaves the file at the version before it.
        ``executescript`` would commit each statement on its own, so the script begins and
        commits its own transaction (SQLite's DDL is transactional)."""
        try:
            await self._connection.executescript(
                f"BEGIN IMMEDIATE;\n{script}DELETE FROM schema_version;\n"
                f"INSERT INTO schema_version VALUES ({int(number)});\nCOMMIT;\n"
            )
        except BaseException:
            await self._connection.rollback()
            raise

    @contextlib.asynccontextmanager
    async def _begin(self) -> AsyncIterator[Transaction]:
        transaction = SqliteTransaction(self._connection)
        try:
            yield transaction
            await self._connection.commit()
        except BaseException:
            await self._connection.rollback()
            raise
        finally:
            transaction.finish()

    def _unlocked_writes(self) -> Transaction:
        return SqliteTransaction(self._connection)

    async def commit(self) -> None:
        await self._connection.commit()

    # ----------------------------------------------------------------- reading

    async def actions_after(self, hand_id: int, seq: int) -> list[JsonObject]:
        rows = await self._all(
            "SELECT action FROM actions WHERE hand = ? AND seq >= ? ORDER BY seq", (hand_id, seq)
        )
        return [from_json(row[0]) for row in rows]

    async def _all(self, sql: str, parameters: tuple[Any, ...] = ()) -> list[Any]:
        async with self._connection.execute(sql, parameters) as cursor:
            return list(await cursor.fetchall())

    async def _first(self, sql: str, parameters: tuple[Any, ...] = ()) -> Any:
        async with self._connection.execute(sql, parameters) as cursor:
            return await cursor.fetchone()

    async def schema_version(self) -> int:
        row = await self._first("SELECT version FROM schema_version")
        return int(row[0]) if row else 0

    async def open_tables(self, chat: str | None = None) -> list[StoredTable]:
        rows = await self._all(
            "SELECT chat, game, state, settings, updated, deadline, turn_count, saved_at"
            " FROM tables WHERE state != 'closed' AND (? IS NULL OR chat = ?)",
            (chat, chat),
        )
        return [table_from_columns(*row) for row in rows]

    async def closed_table(self, chat: str) -> StoredTable | None:
        row = await self._first(
            "SELECT chat, game, state, settings, updated, deadline, turn_count, saved_at"
            " FROM tables WHERE state = 'closed' AND chat = ?",
            (chat,),
        )
        return None if row is None else table_from_columns(*row)

    async def hands_of(
        self, chat: str, match: str | None = None, since_number: int = 0
    ) -> list[StoredHand]:
        where = (chat, since_number, match, match)
        hands = await self._all(
            f"SELECT id, number, start, result FROM hands WHERE {HAND_FILTER} ORDER BY id", where
        )
        actions = await self._all(
            "SELECT hand, action FROM actions WHERE hand IN"
            f" (SELECT id FROM hands WHERE {HAND_FILTER}) ORDER BY hand, seq",
            where,
        )
        return assemble_hands(hands, actions)

    async def reachable_users(self, prefix: str) -> set[str]:
        rows = await self._all(
            "SELECT user FROM players WHERE reachable = 1 AND substr(user, 1, ?) = ?",
            (len(prefix), prefix),
        )
        return {row[0] for row in rows}

    async def player_lang(self, user: str) -> str | None:
        row = await self._first("SELECT lang FROM players WHERE user = ?", (user,))
        return row[0] if row else None

    async def delivered(self, platform: str, update_id: str, now: float) -> bool:
        row = await self._first(
            "SELECT 1 FROM seen_updates WHERE platform = ? AND update_id = ? AND seen_at >= ?",
            (platform, update_id, now - UPDATES_KEPT_FOR),
        )
        return row is not None

    async def player_stats(self, user: str) -> dict[str, Any]:
        rows = await self._all(
            "SELECT amount, first_out, bonus_units FROM ledger WHERE user = ? ORDER BY rowid",
            (user,),
        )
        return stats_of([(amount, bool(first), bonus) for amount, first, bonus in rows])

    async def leaderboard(self, chat: str, limit: int = 10) -> list[tuple[str, str]]:
        rows = await self._all(
            "SELECT user, name, amount FROM ledger WHERE chat = ? ORDER BY rowid", (chat,)
        )
        return ranking(rows, limit)

    async def subscribers(self, chat: str) -> list[tuple[str, float | None]]:
        rows = await self._all(
            "SELECT user, told_at FROM subscriptions WHERE chat = ? ORDER BY since, user", (chat,)
        )
        return [(user, told_at) for user, told_at in rows]

    async def subscriptions_of(self, user: str) -> list[tuple[str, str]]:
        rows = await self._all(
            "SELECT chat, title FROM subscriptions WHERE user = ? ORDER BY since, chat", (user,)
        )
        return [(chat, title) for chat, title in rows]

    async def finished_hands(self, chat: str, after: int = 0) -> list[FinishedHand]:
        where = "chat = ? AND id > ? AND result IS NOT NULL"
        hands = await self._all(
            f"SELECT id, started, start, result FROM hands WHERE {where} ORDER BY id",
            (chat, after),
        )
        lines = await self._all(
            "SELECT hand, user, name, amount FROM ledger WHERE hand IN"
            f" (SELECT id FROM hands WHERE {where}) ORDER BY rowid",
            (chat, after),
        )
        return assemble_finished(hands, lines)

    async def announced(self, chat: str) -> set[tuple[str, str]]:
        rows = await self._all("SELECT user, code FROM achievements WHERE chat = ?", (chat,))
        return {(user, code) for user, code in rows}

    async def meta(self, key: str) -> str | None:
        row = await self._first("SELECT value FROM meta WHERE key = ?", (key,))
        return row[0] if row else None

    async def dump(self) -> AsyncGenerator[DumpRow, None]:
        # The writer lock keeps this process's writes out (they would show uncommitted on the
        # shared connection); the read transaction keeps other processes' commits out.
        async with self._one_writer:
            await self._connection.execute("BEGIN")
            try:
                for kind, sql in DUMP.items():
                    async with self._connection.execute(sql) as cursor:
                        async for row in cursor:
                            values = list(row)
                            if kind in FLAGS:
                                values[FLAGS[kind]] = bool(values[FLAGS[kind]])
                            yield dump_row(kind, values)
            finally:
                await self._connection.rollback()
