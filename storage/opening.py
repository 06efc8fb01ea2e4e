"""Choosing the back end from a database address."""

from __future__ import annotations

from storage.base import Database
from storage.postgres import PostgresDatabase
from storage.sqlite import SqliteDatabase

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_address(address: str) -> bool:
    return address.lower().startswith(POSTGRES_SCHEMES)


async def open_database(address: str) -> Database:
    """Open (and migrate) the database at ``address``: ``postgresql://user@host/name`` or
    ``postgres://…`` is PostgreSQL; anything else is a SQLite file path (or ``:memory:``)."""
    if is_postgres_address(address):
        return await PostgresDatabase.connect(address)
    return await SqliteDatabase.connect(address)
