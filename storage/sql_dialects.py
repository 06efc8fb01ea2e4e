"""The two SQL dialects the schema is written in (SQLite, PostgreSQL): each one's column types, the
statements that create and migrate the tables, and the queries that dump and load every kind of
row."""

from __future__ import annotations

from dataclasses import dataclass

from storage.schema import DUMPED, STEPS, Column, Index, Kind, Step, Table, dumped_columns, key_of


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
                self.add_column(name, column)
                for name, column in step.columns
                if name not in created
            )
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
    versions=(1, 1, 1, 1, 1, 1, 1, 1, 1),
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
    versions=(3, 1, 1, 1, 1, 1, 1),
    numbered=True,
    bytewise=' COLLATE "C"',
    unwritten_order="id",
    identity_insert=" OVERRIDING SYSTEM VALUE",
)
