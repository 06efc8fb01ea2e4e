"""A copy of the database taken while the bot runs (``python -m bot backup-db FILE``).

A SQLite file is copied with ``VACUUM INTO`` on a read-only connection of its own: one read
transaction, so the copy is the database as one moment left it — every step committed
before that moment, nothing of a step after it — while the bot goes on writing (in WAL mode
readers and the writer do not wait on each other). The copy is a compact SQLite file: the
bot opens it as it is (``BOT_DB=copy``), and ``export-db --db copy`` moves it elsewhere. It
is written under a temporary name beside the target and renamed once complete and checked,
so a backup cut short never leaves a file that looks whole.

PostgreSQL has ``pg_dump`` for this (docs/operations.md); ``backup-db`` there writes the
portable export of one consistent snapshot (`storage.transfer`), which ``import-db``
restores into an empty database.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections import Counter
from pathlib import Path
from urllib.parse import quote

from storage.schema import DUMPED


class BackupError(Exception):
    """A backup that cannot be made (no database, a target that exists already)."""


async def backup_sqlite(path: str, target: str | Path) -> tuple[int, Counter[str]]:
    """Copy the SQLite file at ``path`` to ``target`` (which must not exist yet) while others
    may be writing to it; returns the copy's schema version and its rows of each kind."""
    return await asyncio.to_thread(_backup, path, Path(target))


def _backup(path: str, target: Path) -> tuple[int, Counter[str]]:
    if not os.path.isfile(path):
        raise BackupError(f"no database file {path}")
    if target.exists():
        raise BackupError(f"{target} exists already: name a new file")
    partial = target.with_name(f".{target.name}.partial")
    partial.unlink(missing_ok=True)  # left by a backup that was killed
    source = sqlite3.connect(f"file:{quote(os.path.abspath(path))}?mode=ro", uri=True, timeout=30)
    try:
        source.execute("VACUUM INTO ?", (str(partial),))
    finally:
        source.close()
    try:
        version, counts = _checked(partial)
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return version, counts


def _checked(copy: Path) -> tuple[int, Counter[str]]:
    """The copy's version and row counts, after SQLite's own check of its structure."""
    connection = sqlite3.connect(f"file:{quote(str(copy))}?mode=ro", uri=True)
    try:
        verdict = connection.execute("PRAGMA quick_check").fetchone()[0]
        if verdict != "ok":
            raise BackupError(f"the copy failed SQLite's check: {verdict}")
        version = connection.execute("SELECT version FROM schema_version").fetchone()[0]
        counts: Counter[str] = Counter()
        for kind, table in DUMPED.items():
            counts[kind] = connection.execute(f"SELECT count(*) FROM {table.name}").fetchone()[0]
    finally:
        connection.close()
    return int(version), counts
