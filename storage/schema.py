"""The bot's tables, described once: each back end's migration scripts, and the statements
that dump and load every row, are written from here.

The schema grew in `STEPS`; a step creates tables and indexes, and adds columns to tables an
earlier step made. A SQLite file took the steps one at a time (its version is the number of
steps it has), while PostgreSQL came later and took the first three in one go: a back end's
versions are groups of steps (`Dialect.versions`), and a column added in the same group as its
table is written into that table's ``CREATE TABLE``. What differs between the back ends — the
words for a type, the name of the player column, booleans as integers — is `Dialect`'s, in
`SQLITE` and `POSTGRES`.
"""

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
        return tuple(column for name in table.key for column in table.columns
                     if column.name == name)  # fmt: skip
    return tuple(
        column for column in table.columns
        if column.primary_key or column.kind in (Kind.ID, Kind.ORDER)
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class Dialect:
    """How one back end writes the schema."""

    types: dict[Kind, str | None]
    """A kind's type, with any key words that come with it (None: no column is written)."""
    true: str
    false: str
    names: dict[str, str]
    """Columns named otherwise on this back end (a reserved word there)."""
    versions: tuple[int, ...]
    """How many steps each version groups, in order."""
    numbered: bool
    """Placeholders are ``$1, $2, …`` (else ``?``)."""
    bytewise: str
    """What makes an ``ORDER BY`` of a text column byte-wise."""
    unwritten_order: str
    """What the back end calls an `ORDER` column it has without one (its rowid)."""
    identity_insert: str
    """What an ``INSERT`` that gives an `ID` column its value says before ``VALUES``."""

    def name(self, column: str) -> str:
        return self.names.get(column, column)

    def placeholders(self, count: int) -> str:
        return ", ".join(f"${n}" if self.numbered else "?" for n in range(1, count + 1))

    def column(self, column: Column) -> str | None:
        """A column's definition, or None where the back end has it without one."""
        written = self.types[column.kind]
        if written is None:
            return None
        words = [self.name(column.name), written]
        if column.primary_key:
            words.append("PRIMARY KEY")
        elif not column.null and column.kind not in (Kind.ID, Kind.ORDER):
            words.append("NOT NULL")
        if isinstance(column.default, bool):
            words.append(f"DEFAULT {self.true if column.default else self.false}")
        elif column.default is not None:
            words.append(f"DEFAULT '{column.default}'")
        if column.references is not None:
            words.append(f"REFERENCES {column.references}")
        return " ".join(words)

    def create_table(self, table: Table, added: tuple[Column, ...] = ()) -> str:
        columns = [self.column(column) for column in (*table.columns, *added)]
        lines = [column for column in columns if column is not None]
        if table.key:
            lines.append(f"PRIMARY KEY ({', '.join(self.name(name) for name in table.key)})")
        if table.unique:
            lines.append(f"UNIQUE ({', '.join(table.unique)})")
        body = ",\n".join(f"    {line}" for line in lines)
        return f"CREATE TABLE {table.name} (\n{body}\n)"

    def create_index(self, index: Index) -> str:
        return f"CREATE INDEX {index.name} ON {index.table}({self.name(index.column)})"

    def add_column(self, table: str, column: Column) -> str:
        return f"ALTER TABLE {table} ADD COLUMN {self.column(column)}"

    def script(self, steps: tuple[Step, ...]) -> str:
        """The statements of ``steps`` taken at once, as one script."""
        created = {table.name for step in steps for table in step.tables}
        added = [pair for step in steps for pair in step.columns]
        statements = []
        for step in steps:
            for table in step.tables:
                folded = tuple(column for name, column in added if name == table.name)
                statements.append(self.create_table(table, folded))
            statements.extend(self.create_index(index) for index in step.indexes)
            statements.extend(
                self.add_column(name, column) for name, column in step.columns
                if name not in created
            )  # fmt: skip
        return "".join(f"{statement};\n" for statement in statements)

    def dump_queries(self) -> dict[str, str]:
        """What ``dump()`` reads for each kind of row: its columns in `DUMPED` order, in the
        order of its table's key (text byte-wise)."""
        queries = {}
        for kind, table in DUMPED.items():
            columns = ", ".join(self.name(column.name) for column in dumped_columns(kind))
            order = ", ".join(self._sorted_by(column) for column in key_of(table))
            queries[kind] = f"SELECT {columns} FROM {table.name} ORDER BY {order}"
        return queries

    def _sorted_by(self, column: Column) -> str:
        if column.kind is Kind.ORDER and self.types[Kind.ORDER] is None:
            return self.unwritten_order
        return self.name(column.name) + (self.bytewise if column.kind is Kind.TEXT else "")

    def load_statements(self) -> dict[str, str]:
        """What ``load()`` writes each kind of row with: its columns in `DUMPED` order."""
        statements = {}
        for kind, table in DUMPED.items():
            columns = dumped_columns(kind)
            names = ", ".join(self.name(column.name) for column in columns)
            identity = any(column.kind is Kind.ID for column in columns)
            statements[kind] = (
                f"INSERT INTO {table.name} ({names})"
                f"{self.identity_insert if identity else ''}"
                f" VALUES ({self.placeholders(len(columns))})"
            )
        return statements

    def migrations(self) -> tuple[str, ...]:
        """The script that brings each version up from the one before (version 1 from none)."""
        scripts = []
        first = 0
        for count in self.versions:
            scripts.append(self.script(STEPS[first : first + count]))
            first += count
        assert first == len(STEPS), "every step belongs to a version"
        return tuple(scripts)


SQLITE = Dialect(
    types={
        Kind.TEXT: "TEXT",
        Kind.INTEGER: "INTEGER",
        Kind.REAL: "REAL",
        Kind.FLAG: "INTEGER",
        Kind.ID: "INTEGER PRIMARY KEY AUTOINCREMENT",
        Kind.ORDER: None,
        Kind.ID_REF: "INTEGER",
    },
    true="1",
    false="0",
    names={},
    versions=(1, 1, 1, 1, 1, 1, 1, 1),
    numbered=False,
    bytewise="",
    unwritten_order="rowid",
    identity_insert="",
)

POSTGRES = Dialect(
    types={
        Kind.TEXT: "TEXT",
        Kind.INTEGER: "INTEGER",
        Kind.REAL: "DOUBLE PRECISION",
        Kind.FLAG: "BOOLEAN",
        Kind.ID: "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
        Kind.ORDER: "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
        Kind.ID_REF: "BIGINT",
    },
    true="TRUE",
    false="FALSE",
    names={"user": "user_id"},
    versions=(3, 1, 1, 1, 1, 1),
    numbered=True,
    bytewise=' COLLATE "C"',
    unwritten_order="id",
    identity_insert=" OVERRIDING SYSTEM VALUE",
)
