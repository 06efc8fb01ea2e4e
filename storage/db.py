"""Compatibility: the names ``storage.db`` had before the back ends were split. New code
imports from ``storage``; the SQLite migrations live in ``storage.sqlite``."""

from storage.base import Database
from storage.rows import StoredHand, StoredTable
from storage.sqlite import MIGRATIONS

__all__ = ["MIGRATIONS", "Database", "StoredHand", "StoredTable"]
