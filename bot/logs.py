"""Logging for the running bot: tokens never reach a log line, whoever writes it, and every
line says which table it is about.

A client library may put its token in a URL, and a URL in a log line or a traceback; the
formatter replaces every configured secret in the finished line, tracebacks included.

``with table_context(chat):`` marks what runs inside it (and the tasks it starts) as work on
that table: each record logged meanwhile carries ``table=<chat>`` (``table=-`` outside any
table; ``extra={"table": chat}`` names one explicitly).
"""

from __future__ import annotations

import contextvars
import logging
from collections.abc import Iterable

REDACTED = "<redacted>"
NO_TABLE = "-"
FORMAT = "%(asctime)s %(levelname)s %(name)s table=%(table)s %(message)s"

current_table: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "current_table", default=None
)


class table_context:  # lower case: used like a function, ``with table_context(chat):``
    """Records logged inside this block (in this task and the tasks it starts) carry
    ``table=<chat>``; nests, and restores the outer table on leaving. A plain and an async
    context manager both, so it can join a lock: ``async with lock, table_context(chat):``."""

    def __init__(self, chat: str | int) -> None:
        self.chat = str(chat)
        self._tokens: list[contextvars.Token[str | None]] = []

    def __enter__(self) -> None:
        self._tokens.append(current_table.set(self.chat))

    def __exit__(self, *exc_info: object) -> None:
        current_table.reset(self._tokens.pop())

    async def __aenter__(self) -> None:
        self.__enter__()

    async def __aexit__(self, *exc_info: object) -> None:
        self.__exit__()


class TableFilter(logging.Filter):
    """Gives every record a ``table`` attribute: the table being handled when it was logged.
    On a handler it runs where the record is made, so the table is the caller's."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "table", None) is None:
            record.table = current_table.get() or NO_TABLE
        return True


class RedactingFormatter(logging.Formatter):
    def __init__(self, secrets: Iterable[str], fmt: str = FORMAT) -> None:
        super().__init__(fmt)
        self.secrets = sorted((s for s in secrets if s), key=len, reverse=True)
        self._tables = TableFilter()

    def format(self, record: logging.LogRecord) -> str:
        self._tables.filter(record)  # for a handler without the filter
        line = super().format(record)
        for secret in self.secrets:
            line = line.replace(secret, REDACTED)
        return line


def configure_logging(secrets: Iterable[str], level: int = logging.INFO) -> logging.Handler:
    """Log to standard error at ``level``, each line with its table, ``secrets`` removed from
    every line."""
    handler = logging.StreamHandler()
    handler.addFilter(TableFilter())
    handler.setFormatter(RedactingFormatter(secrets))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(level)
    logging.getLogger("httpx").setLevel(logging.WARNING)  # a line per request, with its URL
    logging.getLogger("aiohttp.access").setLevel(logging.WARNING)
    return handler
