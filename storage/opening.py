"""Choosing the back end from a database address."""

from __future__ import annotations

from urllib.parse import unquote, urlsplit, urlunsplit

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


def masked_address(address: str) -> str:
    """The address as it may be printed or logged: a PostgreSQL address's password (in the
    user part or a ``password=`` parameter) replaced by ``***``; a file path as it is."""
    if not is_postgres_address(address):
        return address
    parts = urlsplit(address)
    users, at, hosts = parts.netloc.rpartition("@")
    netloc = f"{users.split(':', 1)[0]}:***@{hosts}" if at and ":" in users else parts.netloc
    pairs = []
    for pair in parts.query.split("&") if parts.query else []:
        name = pair.split("=", 1)[0]
        pairs.append(f"{name}=***" if name.lower() == "password" else pair)
    return urlunsplit(parts._replace(netloc=netloc, query="&".join(pairs)))


def address_secrets(address: str) -> list[str]:
    """The password of a PostgreSQL address as written and decoded, to be kept out of
    anything printed (none for a file path)."""
    if not is_postgres_address(address):
        return []
    parts = urlsplit(address)
    users = parts.netloc.rpartition("@")[0]
    found = [users.split(":", 1)[1]] if ":" in users else []
    for pair in parts.query.split("&"):
        name, _, value = pair.partition("=")
        if name.lower() == "password":
            found.append(value)
    return [s for secret in found for s in {secret, unquote(secret)} if s]
