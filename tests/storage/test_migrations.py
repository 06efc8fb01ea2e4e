"""A migration is all or nothing on both back ends: a step that fails, or whose process or
session dies halfway, leaves the database at the version before it, and the next start
takes the step again from there."""

from __future__ import annotations

import asyncio
import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import asyncpg
import pytest

from storage import open_database
from storage import postgres as postgres_back_end
from storage import sqlite as sqlite_back_end
from tests.pg_server import PostgresServer

ROOT = Path(__file__).parents[2]


def made_by_last_step(scripts: tuple[str, ...]) -> tuple[str, str | None]:
    """What the last version's script makes, the witness of its having run: the first table
    it creates (its name, None), else the first column it adds (its table and name)."""
    made = re.search(r"CREATE TABLE (\w+)", scripts[-1])
    if made is not None:
        return made.group(1), None
    added = re.search(r"ALTER TABLE (\w+) ADD COLUMN (\w+)", scripts[-1])
    assert added is not None, "the last version makes no table nor column: choose a witness"
    return added.group(1), added.group(2)


NEW_TABLE = made_by_last_step(sqlite_back_end.MIGRATIONS)
assert made_by_last_step(postgres_back_end.MIGRATIONS) == NEW_TABLE
NEVER_ENDS = (
    "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n;"
)


def sqlite_state(path: Path) -> tuple[int, bool]:
    """(schema version, whether the last step's table exists), read without the bot."""
    with sqlite3.connect(path) as connection:
        version = connection.execute("SELECT version FROM schema_version").fetchone()[0]
        table, column = NEW_TABLE
        made = connection.execute(
            "SELECT count(*) FROM sqlite_master WHERE name = ?"
            if column is None
            else "SELECT count(*) FROM pragma_table_info(?) WHERE name = ?",
            (table,) if column is None else (table, column),
        ).fetchone()[0]
    return version, bool(made)


async def sqlite_one_version_behind(path: Path, monkeypatch: pytest.MonkeyPatch) -> int:
    latest = sqlite_back_end.MIGRATIONS
    with monkeypatch.context() as patch:
        patch.setattr(sqlite_back_end, "MIGRATIONS", latest[:-1])
        db = await open_database(str(path))
        await db.close()
    assert sqlite_state(path) == (len(latest) - 1, False)
    return len(latest) - 1


async def test_a_failing_sqlite_step_leaves_the_version_before_it(tmp_path, monkeypatch):
    path = tmp_path / "old.sqlite3"
    before = await sqlite_one_version_behind(path, monkeypatch)
    broken = (*sqlite_back_end.MIGRATIONS[:-1], sqlite_back_end.MIGRATIONS[-1] + "SELECT nonsense;")
    with monkeypatch.context() as patch:
        patch.setattr(sqlite_back_end, "MIGRATIONS", broken)
        with pytest.raises(sqlite3.OperationalError):
            await open_database(str(path))
    assert sqlite_state(path) == (before, False)  # its step rolled back whole
    db = await open_database(str(path))  # the next start takes the step from there
    assert await db.schema_version() == before + 1
    await db.close()
    assert sqlite_state(path) == (before + 1, True)


async def test_a_process_killed_in_the_middle_of_a_sqlite_step_leaves_the_version_before_it(
    tmp_path, monkeypatch
):
    """The last step runs with a statement after its CREATE TABLE that never ends; the process
    is killed (SIGKILL) once it holds the write lock, i.e. while inside the step."""
    path = tmp_path / "old.sqlite3"
    before = await sqlite_one_version_behind(path, monkeypatch)
    child = subprocess.Popen(
        [sys.executable, "-c", MIGRATE_FOREVER, str(path), NEVER_ENDS], cwd=ROOT
    )
    try:
        wait_until_write_locked(path, child)
    finally:
        child.kill()
        child.wait()
    assert sqlite_state(path) == (before, False)
    db = await open_database(str(path))
    assert await db.schema_version() == before + 1
    await db.close()


MIGRATE_FOREVER = """
import asyncio, sys
from storage import open_database, sqlite
sqlite.MIGRATIONS = (*sqlite.MIGRATIONS[:-1], sqlite.MIGRATIONS[-1] + sys.argv[2])
asyncio.run(open_database(sys.argv[1]))
"""


def wait_until_write_locked(path: Path, child: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        assert child.poll() is None, "the migrating process ended by itself"
        probe = sqlite3.connect(path, timeout=0, isolation_level=None)
        try:
            probe.execute("BEGIN IMMEDIATE")
            probe.execute("ROLLBACK")
        except sqlite3.OperationalError as error:
            assert "locked" in str(error)
            return
        finally:
            probe.close()
        time.sleep(0.02)
    pytest.fail("the migrating process never took the write lock")


async def postgres_state(address: str) -> tuple[int, bool]:
    connection = await asyncpg.connect(address)
    try:
        version = await connection.fetchval("SELECT version FROM schema_version")
        table, column = NEW_TABLE
        if column is None:
            made = await connection.fetchval("SELECT to_regclass($1) IS NOT NULL", table)
        else:
            made = await connection.fetchval(
                "SELECT count(*) = 1 FROM information_schema.columns"
                " WHERE table_name = $1 AND column_name = $2",
                table,
                column,
            )
    finally:
        await connection.close()
    return version, made


async def postgres_one_version_behind(server: PostgresServer, monkeypatch) -> tuple[str, int]:
    address = server.database()
    latest = postgres_back_end.MIGRATIONS
    with monkeypatch.context() as patch:
        patch.setattr(postgres_back_end, "MIGRATIONS", latest[:-1])
        db = await open_database(address)
        await db.close()
    assert await postgres_state(address) == (len(latest) - 1, False)
    return address, len(latest) - 1


async def test_a_failing_postgres_step_leaves_the_version_before_it(postgres_server, monkeypatch):
    address, before = await postgres_one_version_behind(postgres_server, monkeypatch)
    steps = postgres_back_end.MIGRATIONS
    with monkeypatch.context() as patch:
        patch.setattr(postgres_back_end, "MIGRATIONS", (*steps[:-1], steps[-1] + "SELECT 1/0;"))
        with pytest.raises(asyncpg.DivisionByZeroError):
            await open_database(address)
    assert await postgres_state(address) == (before, False)
    db = await open_database(address)
    assert await db.schema_version() == before + 1
    await db.close()


async def test_a_postgres_session_ended_in_the_middle_of_a_step_leaves_the_version_before_it(
    postgres_server, monkeypatch
):
    """The session migrating is terminated by the server while it sleeps inside the last
    step, after that step's CREATE TABLE: as if its process or connection had died."""
    address, before = await postgres_one_version_behind(postgres_server, monkeypatch)
    steps = postgres_back_end.MIGRATIONS
    with monkeypatch.context() as patch:
        patch.setattr(
            postgres_back_end, "MIGRATIONS", (*steps[:-1], steps[-1] + "SELECT pg_sleep(60);")
        )
        migrating = asyncio.create_task(open_database(address))
        watcher = await asyncpg.connect(address)
        try:
            pid = None
            for _ in range(1000):
                pid = await watcher.fetchval(
                    "SELECT pid FROM pg_stat_activity WHERE query LIKE '%pg_sleep(60)%'"
                    " AND pid <> pg_backend_pid()"
                )
                if pid is not None:
                    break
                await asyncio.sleep(0.01)
            assert pid is not None, "the migration never reached its last statement"
            assert await watcher.fetchval("SELECT pg_terminate_backend($1)", pid)
        finally:
            await watcher.close()
        with pytest.raises((asyncpg.PostgresError, asyncpg.InterfaceError, OSError)):
            await migrating
    assert await postgres_state(address) == (before, False)
    db = await open_database(address)
    assert await db.schema_version() == before + 1
    await db.close()
