"""The PostgreSQL back end (asyncpg): a connection pool, for several bot processes or a
managed database.

Writes of one transaction go through one pooled connection inside a database transaction;
reads take any connection and see only committed data. The writer lock of
``Database.transaction()`` is kept here too, so steps commit in the order the host made them,
as on SQLite. Same tables as the SQLite file; the player column is ``user_id`` (``user`` is a
reserved word here), flags are booleans and the ledger has an identity column that keeps the
order lines were written in.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncGenerator, AsyncIterator, Iterable, Sequence
from typing import Any, TypeAlias

import asyncpg
import asyncpg.pool

from storage.base import UPDATES_KEPT_FOR, Database, Transaction
from storage.postgres_copies import PostgresCopyReads
from storage.postgres_dump import DUMP, LOAD, typed_row
from storage.postgres_hand_lookup import PostgresHandLookups
from storage.postgres_leases import PostgresLeaseReads, PostgresLeaseWrites
from storage.postgres_quick import PostgresQuickReads, PostgresQuickWrites
from storage.postgres_ratings import PostgresRatingReads, PostgresRatingWrites
from storage.postgres_signals import PostgresSignals
from storage.row_codec import (
    assemble_finished,
    dump_row,
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
    StoredTable,
    TableRow,
    TimerRow,
)
from storage.sql_dialects import POSTGRES

MIGRATIONS: tuple[str, ...] = POSTGRES.migrations()
"""Version 1 is everything the SQLite file has at its version 3."""

MIGRATION_LOCK = 0x63617264  # "card": the advisory lock two processes migrating at once share

SAVE_TABLE = (
    "INSERT INTO tables (chat, game, state, settings, updated) VALUES ($1, $2, $3, $4, $5)"
    " ON CONFLICT (chat) DO UPDATE SET game = EXCLUDED.game, state = EXCLUDED.state,"
    " settings = EXCLUDED.settings, updated = EXCLUDED.updated, deadline = NULL,"
    " turn_count = NULL, saved_at = NULL"
)
"""A whole table: its settings carry the timer too, so the separate timer is cleared."""


# A string: asyncpg's classes take type arguments only in its stubs.
Connection: TypeAlias = "asyncpg.pool.PoolConnectionProxy[asyncpg.Record]"


class PostgresTransaction(
    PostgresLeaseWrites, PostgresRatingWrites, PostgresQuickWrites, Transaction
):
    """Writes on one pooled connection inside a database transaction."""

    def __init__(self, connection: Connection) -> None:
        self._connection = connection

    @property
    def _db(self) -> Connection:
        self._ensure_open()
        return self._connection

    async def tell(self, channel: str, payloads: Sequence[str]) -> None:
        if payloads:  # one statement for a batch of steps
            await self._db.execute(
                "SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p", channel, list(payloads)
            )

    async def save_tables(self, rows: Sequence[TableRow]) -> None:
        if rows:
            now = time.time()
            await self._db.executemany(SAVE_TABLE, table_values(rows, now))

    async def save_timers(self, rows: Sequence[TimerRow]) -> None:
        if rows:
            await self._db.executemany(
                "UPDATE tables SET deadline = $1, turn_count = $2, saved_at = $3, updated = $3"
                " WHERE chat = $4",
                [(row.deadline, row.turn_count, row.saved_at, row.chat) for row in rows],
            )

    async def append_actions(self, rows: Sequence[ActionRow]) -> None:
        if rows:
            now = time.time()
            await self._db.executemany(
                "INSERT INTO actions (hand, seq, action, at) VALUES ($1, $2, $3, $4)",
                [(row.hand_id, row.seq, to_json(row.action), now) for row in rows],
            )

    async def start_hand(self, chat: str, match: str, number: int, start: JsonObject) -> int:
        hand_id = await self._db.fetchval(
            "INSERT INTO hands (chat, match, number, start, started)"
            " VALUES ($1, $2, $3, $4, $5) RETURNING id",
            chat,
            match,
            number,
            to_json(start),
            time.time(),
        )
        return int(hand_id)

    async def finish_hand(
        self, hand_id: int, chat: str, result: JsonObject, ledger: Sequence[LedgerLine]
    ) -> None:
        await self._db.execute(
            "UPDATE hands SET result = $1 WHERE id = $2", to_json(result), hand_id
        )
        if ledger:
            await self._db.executemany(
                "INSERT INTO ledger (chat, hand, user_id, name, amount, first_out, bonus_units)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7)",
                [
                    (chat, hand_id, line.user, line.name, line.amount, line.first_out, line.bonus)
                    for line in ledger
                ],
            )

    async def set_player(self, user: str, name: str, lang: str | None = None) -> None:
        await self._db.execute(
            "INSERT INTO players (user_id, name, lang) VALUES ($1, $2, $3)"
            " ON CONFLICT (user_id) DO UPDATE SET name = EXCLUDED.name,"
            " lang = COALESCE(EXCLUDED.lang, players.lang)",
            user,
            name,
            lang,
        )

    async def set_reachable(self, user: str, name: str) -> None:
        await self._db.execute(
            "INSERT INTO players (user_id, name, reachable) VALUES ($1, $2, TRUE)"
            " ON CONFLICT (user_id) DO UPDATE SET reachable = TRUE",
            user,
            name,
        )

    async def set_meta(self, key: str, value: str) -> None:
        await self._db.execute(
            "INSERT INTO meta (key, value) VALUES ($1, $2)"
            " ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
            key,
            value,
        )

    async def first_delivery(self, platform: str, update_id: str, now: float) -> bool:
        await self._db.execute(
            "DELETE FROM seen_updates WHERE seen_at < $1", now - UPDATES_KEPT_FOR
        )
        # A second process inserting the same id waits for the first one's commit here,
        # then inserts nothing.
        taken = await self._db.fetchval(
            "INSERT INTO seen_updates (platform, update_id, seen_at) VALUES ($1, $2, $3)"
            " ON CONFLICT (platform, update_id) DO NOTHING RETURNING 1",
            platform,
            update_id,
            now,
        )
        return taken is not None

    async def subscribe(self, chat: str, user: str, title: str, now: float) -> None:
        await self._db.execute(
            "INSERT INTO subscriptions (chat, user_id, title, since) VALUES ($1, $2, $3, $4)"
            " ON CONFLICT (chat, user_id) DO UPDATE SET title = EXCLUDED.title",
            chat,
            user,
            title,
            now,
        )

    async def unsubscribe(self, chat: str, user: str) -> bool:
        status = await self._db.execute(
            "DELETE FROM subscriptions WHERE chat = $1 AND user_id = $2", chat, user
        )
        return bool(status == "DELETE 1")

    async def mark_told(self, chat: str, users: Sequence[str], now: float) -> None:
        await self._db.executemany(
            "UPDATE subscriptions SET told_at = $1 WHERE chat = $2 AND user_id = $3",
            [(now, chat, user) for user in users],
        )

    async def announce(self, chat: str, user: str, code: str, now: float) -> bool:
        taken = await self._db.fetchval(
            "INSERT INTO achievements (chat, user_id, code, at) VALUES ($1, $2, $3, $4)"
            " ON CONFLICT (chat, user_id, code) DO NOTHING RETURNING 1",
            chat,
            user,
            code,
            now,
        )
        return taken is not None

    async def delete_table(self, chat: str) -> None:
        await self._db.execute("DELETE FROM tables WHERE chat = $1", chat)

    async def forget_closed_tables(self, closed_before: float, now: float) -> int:
        await self._db.execute(
            "DELETE FROM leases WHERE expires <= $1"
            " AND chat NOT IN (SELECT chat FROM tables WHERE state != 'closed')",
            now,
        )
        status = await self._db.execute(
            "DELETE FROM tables WHERE state = 'closed' AND updated < $1", closed_before
        )
        return int(status.split()[-1])  # "DELETE n"

    async def _move_rows(self, table: str, old_chat: str, new_chat: str) -> None:
        await self._db.execute(f"UPDATE {table} SET chat = $1 WHERE chat = $2", new_chat, old_chat)

    async def load(self, rows: Iterable[DumpRow]) -> None:
        for kind, values in grouped(rows):
            await self._db.executemany(LOAD[kind], [typed_row(kind, v) for v in values])
            if kind == "hand":  # the next hand started here gets the next id
                await self._db.execute(
                    "SELECT setval(pg_get_serial_sequence('hands', 'id'), max(id))"
                    " FROM hands HAVING count(*) > 0"
                )


STALLED_TRANSACTION_SECONDS = 10.0
"""A session that sits this long inside a transaction without a statement is ended by the
server, its transaction rolled back. A bot process stopped mid-step (SIGSTOP, a frozen VM)
would otherwise keep the row locks of its leases for as long as it stays stopped, and every
other process's claim of those tables would wait on them: no table of it would ever be
taken over. A live step waits on nothing but the database between its statements."""


class PostgresDatabase(
    PostgresLeaseReads,
    PostgresCopyReads,
    PostgresRatingReads,
    PostgresQuickReads,
    PostgresHandLookups,
    Database,
):
    """A pool of connections to one PostgreSQL database."""

    backend = "postgresql"

    def __init__(self, pool: asyncpg.Pool[asyncpg.Record]) -> None:
        super().__init__()
        self._pool = pool
        self.signals: PostgresSignals = PostgresSignals(pool)

    @classmethod
    async def connect(
        cls,
        address: str,
        min_connections: int = 1,
        max_connections: int = 10,
        stalled_after: float = STALLED_TRANSACTION_SECONDS,
    ) -> PostgresDatabase:
        pool = await asyncpg.create_pool(
            address,
            min_size=min_connections,
            max_size=max_connections,
            server_settings={
                "application_name": "cardbot",
                "idle_in_transaction_session_timeout": str(round(stalled_after * 1000)),
            },
        )
        database = cls(pool)
        try:
            await database._migrate()
        except BaseException:
            await pool.close()
            raise
        return database

    async def close(self) -> None:
        await self.signals.close()
        await self._pool.close()

    async def _migrate(self) -> None:
        async with self._pool.acquire() as connection, connection.transaction():
            # Taken before looking at the version, so a second process waits, then sees the
            # first one's work and has nothing left to do. Released when this commits.
            await connection.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await connection.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"
            )
            version = await connection.fetchval("SELECT version FROM schema_version") or 0
            if version >= len(MIGRATIONS):
                return
            for script in MIGRATIONS[version:]:
                await connection.execute(script)
            await connection.execute("DELETE FROM schema_version")
            await connection.execute("INSERT INTO schema_version VALUES ($1)", len(MIGRATIONS))

    @contextlib.asynccontextmanager
    async def _begin(self) -> AsyncIterator[Transaction]:
        async with self._pool.acquire() as connection, connection.transaction():
            transaction = PostgresTransaction(connection)
            try:
                yield transaction
            finally:
                transaction.finish()

    # ----------------------------------------------------------------- reading

    async def schema_version(self) -> int:
        version = await self._pool.fetchval("SELECT version FROM schema_version")
        return int(version) if version is not None else 0

    async def open_tables(self, chat: str | None = None) -> list[StoredTable]:
        rows = await self._pool.fetch(
            "SELECT chat, game, state, settings, updated, deadline, turn_count, saved_at"
            " FROM tables WHERE state != 'closed' AND ($1::text IS NULL OR chat = $1)",
            chat,
        )
        return [table_from_columns(*row) for row in rows]

    async def closed_table(self, chat: str) -> StoredTable | None:
        row = await self._pool.fetchrow(
            "SELECT chat, game, state, settings, updated, deadline, turn_count, saved_at"
            " FROM tables WHERE state = 'closed' AND chat = $1",
            chat,
        )
        return None if row is None else table_from_columns(*row)

    async def reachable_users(self, prefix: str) -> set[str]:
        rows = await self._pool.fetch(
            "SELECT user_id FROM players WHERE reachable AND starts_with(user_id, $1)", prefix
        )
        return {row["user_id"] for row in rows}

    async def player_lang(self, user: str) -> str | None:
        lang: str | None = await self._pool.fetchval(
            "SELECT lang FROM players WHERE user_id = $1", user
        )
        return lang

    async def delivered(self, platform: str, update_id: str, now: float) -> bool:
        found = await self._pool.fetchval(
            "SELECT 1 FROM seen_updates WHERE platform = $1 AND update_id = $2 AND seen_at >= $3",
            platform,
            update_id,
            now - UPDATES_KEPT_FOR,
        )
        return found is not None

    async def player_stats(self, user: str) -> dict[str, Any]:
        rows = await self._pool.fetch(
            "SELECT amount, first_out, bonus_units FROM ledger WHERE user_id = $1 ORDER BY id",
            user,
        )
        return stats_of([(row[0], row[1], row[2]) for row in rows])

    async def leaderboard(self, chat: str, limit: int = 10) -> list[tuple[str, str]]:
        rows = await self._pool.fetch(
            "SELECT user_id, name, amount FROM ledger WHERE chat = $1 ORDER BY id", chat
        )
        return ranking([(row[0], row[1], row[2]) for row in rows], limit)

    async def subscribers(self, chat: str) -> list[tuple[str, float | None]]:
        rows = await self._pool.fetch(
            "SELECT user_id, told_at FROM subscriptions WHERE chat = $1"
            ' ORDER BY since, user_id COLLATE "C"',
            chat,
        )
        return [(row[0], row[1]) for row in rows]

    async def subscriptions_of(self, user: str) -> list[tuple[str, str]]:
        rows = await self._pool.fetch(
            "SELECT chat, title FROM subscriptions WHERE user_id = $1"
            ' ORDER BY since, chat COLLATE "C"',
            user,
        )
        return [(row[0], row[1]) for row in rows]

    async def finished_hands(self, chat: str, after: int = 0) -> list[FinishedHand]:
        async with (
            self._pool.acquire() as connection,
            # One snapshot for both queries: no line of a hand that is not in the list.
            connection.transaction(isolation="repeatable_read", readonly=True),
        ):
            hands = await connection.fetch(
                "SELECT id, started, start, result FROM hands WHERE chat = $1 AND id > $2"
                " AND result IS NOT NULL ORDER BY id",
                chat,
                after,
            )
            lines = await connection.fetch(
                "SELECT hand, user_id, name, amount FROM ledger WHERE hand = ANY($1::bigint[])"
                " ORDER BY id",
                [row["id"] for row in hands],
            )
        return assemble_finished([tuple(row) for row in hands], [tuple(row) for row in lines])

    async def announced(self, chat: str) -> set[tuple[str, str]]:
        rows = await self._pool.fetch(
            "SELECT user_id, code FROM achievements WHERE chat = $1", chat
        )
        return {(row[0], row[1]) for row in rows}

    async def meta(self, key: str) -> str | None:
        value: str | None = await self._pool.fetchval("SELECT value FROM meta WHERE key = $1", key)
        return value

    async def dump(self) -> AsyncGenerator[DumpRow, None]:
        async with (
            self._pool.acquire() as connection,
            connection.transaction(isolation="repeatable_read", readonly=True),
        ):
            for kind, sql in DUMP.items():
                async for row in connection.cursor(sql, prefetch=500):
                    yield dump_row(kind, tuple(row))
