"""Persistence (aiosqlite): tables, seats, hand records, match ledger, stats."""

from storage.db import Database, StoredHand, StoredTable

__all__ = ["Database", "StoredHand", "StoredTable"]
