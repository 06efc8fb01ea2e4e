"""How a PostgreSQL store is dumped and loaded row by row: the queries that read each kind of row,
the statements that write them back, and each value converted as asyncpg encodes it."""

from __future__ import annotations

from typing import Any

from storage.schema import DUMPED, VALUE_TYPES, dumped_columns
from storage.sql_dialects import POSTGRES

DUMP = POSTGRES.dump_queries()
"""Text columns ordered byte-wise, as SQLite orders them."""


LOAD = POSTGRES.load_statements()


TYPES = {
    kind: tuple(VALUE_TYPES[column.kind] for column in dumped_columns(kind)) for kind in DUMPED
}
"""What each value of a kind of row is converted to for asyncpg."""


def typed_row(kind: str, values: tuple[Any, ...]) -> tuple[Any, ...]:
    """A row's values as asyncpg encodes them (a JSON file may hold 3 for 3.0, 1 for true)."""
    return tuple(
        None if value is None else convert(value)
        for value, convert in zip(values, TYPES[kind], strict=True)
    )
