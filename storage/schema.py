"""The bot's tables, described once: each back end's migration scripts, and the statements
that dump and load every row, are written from here.

The schema grew in `STEPS`; a step creates tables and indexes, and adds columns to tables an
earlier step made. A SQLite file took the steps one at a time (its version is the number of
steps it has), while PostgreSQL came later and took the first three in one go: a back end's
versions are groups of steps (`storage.sql_dialects.Dialect.versions`), and a column added in the
same group as its table is written into that table's ``CREATE TABLE``. What differs between the back
ends — the words for a type, the name of the player column, booleans as integers — is `Dialect`'s,
in `SQLITE` and `POSTGRES`."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Kind(Enum):
    """What a column holds, whatever the back end calls it."""

    TEXT = "text"
    INTEGER = "integer"
    REAL = "real"
    FLAG = "flag"
    """A boolean (an integer 0 or 1 on SQLite)."""
    ID = "id"
    """The key a row is given when it is inserted (a hand's id)."""
    ORDER = "order"
    """The order rows were written in: PostgreSQL's own column; SQLite's rowid keeps it."""
    ID_REF = "id_ref"
    """A reference to an `ID` column."""


@dataclass(frozen=True, slots=True)
class Column:
    name: str
    kind: Kind
    null: bool = False
    primary_key: bool = False
    default: bool | str | None = None
    references: str | None = None
    """``"table(column)"``."""


@dataclass(frozen=True, slots=True)
class Table:
    name: str
    columns: tuple[Column, ...]
    key: tuple[str, ...] = ()
    """A primary key of several columns."""
    unique: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Index:
    name: str
    table: str
    column: str


@dataclass(frozen=True, slots=True)
class Step:
    """One change of the schema."""

    tables: tuple[Table, ...] = ()
    indexes: tuple[Index, ...] = ()
    columns: tuple[tuple[str, Column], ...] = ()
    """(table, column) added to a table an earlier step made."""


STEPS: tuple[Step, ...] = (
    Step(
        tables=(
            Table("tables", (
                Column("chat", Kind.TEXT, primary_key=True),
                Column("game", Kind.TEXT),
                Column("state", Kind.TEXT),
                Column("settings", Kind.TEXT),
                Column("updated", Kind.REAL),
            )),
            Table("hands", (
                Column("id", Kind.ID),
                Column("chat", Kind.TEXT),
                Column("match", Kind.TEXT),
                Column("number", Kind.INTEGER),
                Column("start", Kind.TEXT),
                Column("result", Kind.TEXT, null=True),
                Column("started", Kind.REAL),
            ), unique=("chat", "match", "number")),
            Table("actions", (
                Column("hand", Kind.ID_REF, references="hands(id)"),
                Column("seq", Kind.INTEGER),
                Column("action", Kind.TEXT),
                Column("at", Kind.REAL),
            ), key=("hand", "seq")),
            Table("ledger", (
                Column("id", Kind.ORDER),
                Column("chat", Kind.TEXT),
                Column("hand", Kind.ID_REF, references="hands(id)"),
                Column("user", Kind.TEXT),
                Column("name", Kind.TEXT),
                Column("amount", Kind.TEXT),
                Column("first_out", Kind.FLAG, default=False),
                Column("bonus_units", Kind.TEXT, default="0"),
            )),
            Table("players", (
                Column("user", Kind.TEXT, primary_key=True),
                Column("name", Kind.TEXT),
                Column("lang", Kind.TEXT, null=True),
            )),
            Table("meta", (
                Column("key", Kind.TEXT, primary_key=True),
                Column("value", Kind.TEXT),
            )),
        ),
        indexes=(Index("ledger_user", "ledger", "user"), Index("ledger_chat", "ledger", "chat")),
    ),
    # 2: players a platform lets the bot message first (on Telegram: who opened the bot).
    Step(columns=(("players", Column("reachable", Kind.FLAG, default=False)),)),
    # 3: a table's timer apart from its settings, so a step that only moves the turn writes
    # three numbers rather than the whole settings (saved_at NULL: the settings are current).
    Step(columns=(
        ("tables", Column("deadline", Kind.REAL, null=True)),
        ("tables", Column("turn_count", Kind.INTEGER, null=True)),
        ("tables", Column("saved_at", Kind.REAL, null=True)),
    )),
    # 4: which process owns each table, when several share the database (`storage.leases`).
    Step(
        tables=(
            Table("leases", (
                Column("chat", Kind.TEXT, primary_key=True),
                Column("owner", Kind.TEXT),
                Column("address", Kind.TEXT),
                Column("wanted_by", Kind.TEXT, null=True),
                Column("wanted_address", Kind.TEXT, null=True),
                Column("expires", Kind.REAL),
            )),
        ),
        indexes=(Index("leases_owner", "leases", "owner"),),
    ),
    # 5: the updates taken in the last hour (a Telegram update id, a Discord interaction id),
    # so one delivered twice is handled once, by whichever process takes it first
    # (`storage.base.Transaction.first_delivery`). Not dumped: an hour's worth, no history.
    Step(
        tables=(
            Table("seen_updates", (
                Column("platform", Kind.TEXT),
                Column("update_id", Kind.TEXT),
                Column("seen_at", Kind.REAL),
            ), key=("platform", "update_id")),
        ),
        indexes=(Index("seen_updates_at", "seen_updates", "seen_at"),),
    ),
    # 6: who asked to be told when a game starts in a group (/notify), and when they last
    # were (one message per group per 10 minutes); and the achievements announced in each
    # group, so each is announced once (`bot.community.player_records`). The figures themselves are
    # not stored: they are computed from the hand records and can be rebuilt at any time.
    Step(
        tables=(
            Table("subscriptions", (
                Column("chat", Kind.TEXT),
                Column("user", Kind.TEXT),
                Column("title", Kind.TEXT),
                Column("since", Kind.REAL),
                Column("told_at", Kind.REAL, null=True),
            ), key=("chat", "user")),
            Table("achievements", (
                Column("chat", Kind.TEXT),
                Column("user", Kind.TEXT),
                Column("code", Kind.TEXT),
                Column("at", Kind.REAL),
            ), key=("chat", "user", "code")),
        ),
        indexes=(Index("subscriptions_user", "subscriptions", "user"),),
    ),
    # 7: skill ratings per player and game (`storage.ratings`), and each change of one, so
    # that the week's movers can be read back.
    Step(
        tables=(
            Table("ratings", (
                Column("user", Kind.TEXT),
                Column("game", Kind.TEXT),
                Column("name", Kind.TEXT),
                Column("mu", Kind.REAL),
                Column("sigma", Kind.REAL),
                Column("hands", Kind.INTEGER),
            ), key=("user", "game")),
            Table("rating_changes", (
                Column("id", Kind.ORDER),
                Column("user", Kind.TEXT),
                Column("game", Kind.TEXT),
                Column("hand", Kind.INTEGER),
                Column("name", Kind.TEXT),
                Column("mu_before", Kind.REAL),
                Column("sigma_before", Kind.REAL),
                Column("mu", Kind.REAL),
                Column("sigma", Kind.REAL),
                Column("at", Kind.REAL),
            )),
        ),
        indexes=(Index("rating_changes_at", "rating_changes", "at"),),
    ),
    # 8: the quick queues and the quick tables opened from them, who blocked whom, and when
    # each person left a rated hand before its end, and the hands reported to the operator
    # (`storage.quick_queue`).
    # Not dumped: a queue lasts minutes; a table opened lives on as a table and its hands.
    Step(
        tables=(
            Table("quick_queue", (
                Column("user", Kind.TEXT, primary_key=True),
                Column("game", Kind.TEXT),
                Column("preset", Kind.TEXT),
                Column("mu", Kind.REAL),
                Column("since", Kind.REAL),
                Column("accepts_ai", Kind.FLAG, default=True),
            )),
            Table("quick_tables", (
                Column("chat", Kind.TEXT, primary_key=True),
                Column("game", Kind.TEXT),
                Column("preset", Kind.TEXT),
                Column("users", Kind.TEXT),
                Column("opened", Kind.REAL),
            )),
            Table("blocks", (
                Column("user", Kind.TEXT),
                Column("blocked", Kind.TEXT),
                Column("at", Kind.REAL),
            ), key=("user", "blocked")),
            Table("reports", (
                Column("id", Kind.ORDER),
                Column("user", Kind.TEXT),
                Column("chat", Kind.TEXT),
                Column("hand", Kind.INTEGER),
                Column("note", Kind.TEXT),
                Column("at", Kind.REAL),
            )),
            Table("leaves", (
                Column("user", Kind.TEXT),
                Column("at", Kind.REAL),
            )),
        ),
        indexes=(Index("quick_queue_game", "quick_queue", "game"),
                 Index("quick_tables_opened", "quick_tables", "opened"),
                 Index("leaves_user", "leaves", "user")),
    ),
    # 9: the language a person queued in, so that the process opening their quick table
    # (any process, on PostgreSQL) speaks it to them.
    Step(columns=(("quick_queue", Column("lang", Kind.TEXT, default="")),)),
)  # fmt: skip


def latest(name: str) -> Table:
    """A table as it stands after every step."""
    (table,) = [table for step in STEPS for table in step.tables if table.name == name]
    added = tuple(column for step in STEPS for on, column in step.columns if on == name)
    return Table(name, (*table.columns, *added), table.key, table.unique)


DUMPED: dict[str, Table] = {
    "meta": latest("meta"),
    "player": latest("players"),
    "table": latest("tables"),
    "hand": latest("hands"),
    "action": latest("actions"),
    "ledger": latest("ledger"),
    "subscription": latest("subscriptions"),
    "achievement": latest("achievements"),
    "rating": latest("ratings"),
    "rating_change": latest("rating_changes"),
}
"""The table each kind of dumped row (`storage.rows.DUMP_KINDS`) comes from."""

VALUE_TYPES: dict[Kind, type] = {
    Kind.TEXT: str,
    Kind.INTEGER: int,
    Kind.REAL: float,
    Kind.FLAG: bool,
    Kind.ID: int,
    Kind.ORDER: int,
    Kind.ID_REF: int,
}
"""The Python type of a column's values."""


def dumped_columns(kind: str) -> tuple[Column, ...]:
    """The columns of a kind of dumped row, in its fields' order (the order its table's own
    column has none: it is the order rows are dumped in)."""
    return tuple(column for column in DUMPED[kind].columns if column.kind is not Kind.ORDER)


def key_of(table: Table) -> tuple[Column, ...]:
    if table.key:
        return tuple(
            column for name in table.key for column in table.columns if column.name == name
        )
    return tuple(
        column
        for column in table.columns
        if column.primary_key or column.kind in (Kind.ID, Kind.ORDER)
    )
