"""The operators' commands on the store (``python -m bot migrate``, ``export-db``,
``import-db``, ``backup-db``): each says what it did in one line, or why not in one line
on standard error — never a traceback, never a password."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Mapping

from bot.ops.masking import masked_urls
from storage import Database
from storage.backup import BackupError, backup_sqlite
from storage.opening import is_postgres_address, masked_address
from storage.rows import DUMP_KINDS
from storage.transfer import TransferError, export_to, import_from

OPERATIONS = ("migrate", "export-db", "import-db", "backup-db")


def operate(command: str, address: str, file: str, prog: str) -> int:
    """``migrate``, ``export-db FILE``, ``import-db FILE`` or ``backup-db FILE`` on the
    store at ``address``: 0 when done; otherwise one clear line on standard error (no
    traceback, never a password: the address's password field is masked where it stands,
    `bot.ops.masking`) and 1."""
    shown = masked_address(address)
    try:
        for line in asyncio.run(_operate(command, address, shown, file)):
            print(line)
    except Exception as error:
        reason = masked_reason(error, address)
        print(f"{prog} {command}: {shown}: {reason}", file=sys.stderr)
        return 1
    return 0


def masked_reason(error: BaseException, address: str) -> str:
    """An error's first line, the database's address in it masked as `masked_address`
    masks it, and any other address's password field too."""
    reason = (str(error) or type(error).__name__).splitlines()[0]
    return masked_urls(reason.replace(address, masked_address(address)))


async def _operate(command: str, address: str, shown: str, file: str) -> list[str]:
    if command == "import-db" and not os.path.exists(file):
        raise TransferError(f"no file {file}")
    if command == "backup-db" and not is_postgres_address(address):
        # The running bot's file, read as it is: opening it here would migrate it.
        version, counts = await backup_sqlite(address, file)
        return [f"{shown} → {file}: {_counted(counts)} (schema version {version})"]
    if command == "backup-db" and os.path.exists(file):
        raise BackupError(f"{file} exists already: name a new file")
    db = await Database.open(address)  # opening migrates
    try:
        version = await db.schema_version()
        if command == "migrate":
            return [f"{shown}: schema version {version}"]
        if command in ("export-db", "backup-db"):  # PostgreSQL: one snapshot, as pg_dump's
            counts = await export_to(db, file)
            return [f"{shown} → {file}: {_counted(counts)}"]
        counts = await import_from(db, file)
        return [f"{file} → {shown}: {_counted(counts)}"]
    finally:
        await db.close()


def _counted(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{counts.get(kind, 0)} {kind}" for kind in DUMP_KINDS)
