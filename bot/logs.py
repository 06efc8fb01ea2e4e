"""Logging for the running bot: tokens never reach a log line, whoever writes it.

A client library may put its token in a URL, and a URL in a log line or a traceback; the
formatter replaces every configured secret in the finished line, tracebacks included.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

REDACTED = "<redacted>"


class RedactingFormatter(logging.Formatter):
    def __init__(self, secrets: Iterable[str], fmt: str) -> None:
        super().__init__(fmt)
        self.secrets = sorted((s for s in secrets if s), key=len, reverse=True)

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        for secret in self.secrets:
            line = line.replace(secret, REDACTED)
        return line


def configure_logging(secrets: Iterable[str], level: int = logging.INFO) -> logging.Handler:
    """Log to standard error at ``level``, with ``secrets`` removed from every line."""
    handler = logging.StreamHandler()
    handler.setFormatter(RedactingFormatter(secrets, "%(asctime)s %(name)s %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(level)
    logging.getLogger("httpx").setLevel(logging.WARNING)  # a line per request, with its URL
    return handler
