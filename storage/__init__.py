"""Persistence behind one interface: SQLite (aiosqlite, WAL; the default) or PostgreSQL
(asyncpg), chosen by the database address. Tables, hand records as append-only actions, the
match ledger, player stats. Nothing outside this package writes SQL."""

from storage.base import Database, Transaction
from storage.opening import open_database
from storage.rows import ActionRow, LedgerLine, StoredHand, StoredTable, TableRow, TimerRow

__all__ = [
    "ActionRow",
    "Database",
    "LedgerLine",
    "StoredHand",
    "StoredTable",
    "TableRow",
    "TimerRow",
    "Transaction",
    "open_database",
]
