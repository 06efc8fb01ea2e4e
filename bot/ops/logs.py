"""Logging for the running bot: tokens never reach a log line, whoever writes it, and every
line says which table it is about.

A client library may put its token in a URL, and a URL in a log line or a traceback; the
formatter masks every configured secret in the finished line, tracebacks included, where it
stands as a value of its own, and the password field of every address (`bot.ops.masking`) —
never each occurrence of its text, which would mangle a line around a short one.

``with table_context(chat):`` marks what runs inside it (and the tasks it starts) as work on
that table: each record logged meanwhile carries ``table=<chat>`` (``table=-`` outside any
table; ``extra={"table": chat}`` names one explicitly).

``BOT_LOG_LEVEL`` (DEBUG, INFO, WARNING, ERROR, CRITICAL; default INFO) and
``BOT_LOG_FORMAT`` (``text``, the default, or ``json``: one JSON object a line for a log
collector, with ``table``, ``platform`` and ``game`` where a table is concerned) choose what
is written and how.
"""

from __future__ import annotations

import contextvars
import json
import logging
from collections.abc import Callable, Iterable
from datetime import UTC, datetime

from bot.ops.masking import masked_urls, masked_values

REDACTED = "<redacted>"
NO_TABLE = "-"
FORMAT = "%(asctime)s %(levelname)s %(name)s table=%(table)s %(message)s"
LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
FORMATS = ("text", "json")
PLATFORMS = {"tg": "telegram", "dc": "discord"}
"""A chat id's prefix, before its ``:``, and the platform it names."""


def platform_of(chat: str) -> str:
    """The platform a chat id belongs to: ``tg:-100…`` is Telegram's; an id without a known
    prefix (the console's ``console``) names itself."""
    prefix, colon, _ = chat.partition(":")
    return PLATFORMS.get(prefix, prefix) if colon else chat


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
        return self.redacted(super().format(record))

    def redacted(self, text: str) -> str:
        return masked_urls(masked_values(text, self.secrets, REDACTED), REDACTED)


class JsonFormatter(RedactingFormatter):
    """One JSON object a line: ``time`` (UTC, ISO 8601), ``level``, ``logger``, ``message``,
    ``table``, ``platform`` and ``game`` when a table is concerned, ``exception`` with its
    traceback; every configured secret removed from every value."""

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__(secrets)
        self.game_at: Callable[[str], str | None] = lambda chat: None
        """Which game a chat's table plays (the table manager's, once it exists)."""

    def name_games(self, game_at: Callable[[str], str | None]) -> None:
        """From now on a line about a table names its game, as ``game_at`` tells it."""
        self.game_at = game_at

    def format(self, record: logging.LogRecord) -> str:
        self._tables.filter(record)
        line: dict[str, str] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        chat = str(getattr(record, "table", NO_TABLE))
        if chat != NO_TABLE:
            line["table"] = chat
            line["platform"] = platform_of(chat)
            game = self.game_at(chat)
            if game:
                line["game"] = game
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(
            {key: self.redacted(value) for key, value in line.items()}, ensure_ascii=False
        )


def configure_logging(
    secrets: Iterable[str], level: int | str = logging.INFO, form: str = "text"
) -> logging.Handler:
    """Log to standard error at ``level``, each line with its table, ``secrets`` removed from
    every line; ``form`` is ``text`` or ``json`` (`JsonFormatter`)."""
    handler = logging.StreamHandler()
    handler.addFilter(TableFilter())
    handler.setFormatter(JsonFormatter(secrets) if form == "json" else RedactingFormatter(secrets))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(level)
    logging.getLogger("httpx").setLevel(logging.WARNING)  # a line per request, with its URL
    logging.getLogger("aiohttp.access").setLevel(logging.WARNING)
    return handler


def follow_games(game_at: Callable[[str], str | None]) -> None:
    """JSON log lines name the game of a table from now on, as ``game_at`` tells it."""
    for handler in logging.getLogger().handlers:
        if isinstance(handler.formatter, JsonFormatter):
            handler.formatter.name_games(game_at)
