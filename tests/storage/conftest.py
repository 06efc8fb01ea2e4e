"""Every storage test runs on both back ends: a SQLite file, and a database on a real
PostgreSQL server started once per session (tests/pg_server.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest

from storage import Database, open_database
from tests.pg_server import FAST_FOR_TESTS, PostgresNotAvailable, PostgresServer

BACK_ENDS = ["sqlite", "postgresql"]
ALL_TABLES = (
    "tables, actions, ledger, hands, players, meta, leases, seen_updates, subscriptions, "
    "achievements, ratings, rating_changes, quick_queue, quick_tables, blocks, leaves, reports"
)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    problem = None
    try:
        server = PostgresServer(FAST_FOR_TESTS)
        server.start()
    except PostgresNotAvailable as error:
        problem = str(error)
    if problem is not None:
        pytest.fail(problem, pytrace=False)  # never a skip: these tests must run
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def shared_postgres_address(postgres_server: PostgresServer) -> str:
    """One database for the whole session, emptied before each test (quicker than a new one)."""
    return postgres_server.database("storage_tests")


@pytest.fixture(params=BACK_ENDS)
def back_end(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


@pytest.fixture
def empty_address(back_end: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """The address of a database nothing has been written to yet."""
    if back_end == "sqlite":
        return str(tmp_path / "empty.sqlite3")
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return server.database()


@pytest.fixture
def address(back_end: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """The address of a migrated database that may be reused, to be emptied before use."""
    if back_end == "sqlite":
        return str(tmp_path / "cardbot.sqlite3")
    shared: str = request.getfixturevalue("shared_postgres_address")
    return shared


@pytest.fixture
async def db(back_end: str, address: str) -> AsyncIterator[Database]:
    database = await open_database(address)
    if back_end == "postgresql":
        connection = await asyncpg.connect(address)
        try:
            await connection.execute(f"TRUNCATE {ALL_TABLES} RESTART IDENTITY")
        finally:
            await connection.close()
    try:
        yield database
    finally:
        await database.close()
