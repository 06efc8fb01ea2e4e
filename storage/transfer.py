"""Moving a whole database to a portable JSON-lines file and back, between either back end.

The file's first line is a header (``{"format": "cardbot-export", "version": 1}``), then
one stored row a line as ``Database.dump()`` yields it, written with ``ensure_ascii=False`` and
sorted by kind: meta, players, tables, hands, actions, ledger, /notify subscriptions (with when
each person was last told) and the achievements announced (so none is announced again after a
move). Importing writes every row in one
transaction, into a database that holds nothing yet; hands keep their ids.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from storage.base import Database
from storage.rows import DUMP_KINDS, DumpRow

FORMAT = "cardbot-export"
VERSION = 1
BATCH = 1000
"""Rows handed to ``Transaction.load`` at a time."""


class TransferError(Exception):
    """A file that cannot be imported, or a database that must not take it."""


async def export_to(db: Database, path: str | Path) -> Counter[str]:
    """Write everything ``db`` stores to ``path``; returns the number of rows of each kind."""
    counts: Counter[str] = Counter()
    header = {"format": FORMAT, "version": VERSION}  # the same whichever back end wrote it
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        out.write(_line(header))
        async for row in db.dump():
            counts[row["kind"]] += 1
            out.write(_line(row))
    return counts


async def import_from(db: Database, path: str | Path) -> Counter[str]:
    """Write the rows of the file at ``path`` into ``db``, which must hold nothing yet; all
    or nothing. Returns the number of rows of each kind."""
    if not await db.is_empty():
        raise TransferError("the database is not empty: import only into a new database")
    counts: Counter[str] = Counter()
    with open(path, encoding="utf-8") as source:
        rows = _rows(source)
        async with db.transaction() as tx:
            batch: list[DumpRow] = []
            for row in rows:
                counts[row["kind"]] += 1
                batch.append(row)
                if len(batch) >= BATCH:
                    await tx.load(batch)
                    batch = []
            if batch:
                await tx.load(batch)
    return counts


def _line(value: dict[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False) + "\n"


def _rows(lines: Iterator[str]) -> Iterator[DumpRow]:
    """The rows after the header, checked for their kind and fields."""
    first = next(lines, "")
    if not first.strip():
        raise TransferError("line 1: not a cardbot export (the file is empty)")
    header = _parse(first, 1)
    if header.get("format") != FORMAT:
        raise TransferError("line 1: not a cardbot export (no cardbot-export header)")
    if header.get("version") != VERSION:
        raise TransferError(f"line 1: export version {header.get('version')!r} is not {VERSION}")
    order = list(DUMP_KINDS)
    last = 0
    for number, text in enumerate(lines, start=2):
        if not text.strip():
            continue
        row = _parse(text, number)
        kind = row.get("kind")
        if kind not in DUMP_KINDS:
            raise TransferError(f"line {number}: unknown kind of row {kind!r}")
        missing = [name for name in DUMP_KINDS[kind] if name not in row]
        if missing:
            raise TransferError(f"line {number}: a {kind} row lacks {', '.join(missing)}")
        if order.index(kind) < last:  # a hand must come before its actions and ledger lines
            raise TransferError(f"line {number}: a {kind} row after the {order[last]} rows")
        last = order.index(kind)
        yield row


def _parse(text: str, number: int) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise TransferError(f"line {number}: not JSON ({error.msg})") from None
    if not isinstance(value, dict):
        raise TransferError(f"line {number}: not a JSON object")
    return value
