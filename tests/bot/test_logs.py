"""Tokens never reach a log line, even inside a message or a traceback from a library."""

from __future__ import annotations

import io
import logging

from bot.ops.logs import REDACTED, RedactingFormatter


def test_a_token_in_a_message_or_a_traceback_is_redacted():
    token = "123456:AAH-secret-token"
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(RedactingFormatter([token, ""], "%(name)s %(message)s"))
    log = logging.getLogger("test.redaction")
    log.addHandler(handler)
    log.propagate = False
    try:
        log.warning("POST https://api.example/bot%s/getUpdates failed", token)
        try:
            raise ConnectionError(f"cannot reach /bot{token}/sendMessage")
        except ConnectionError:
            log.exception("sending failed")
    finally:
        log.removeHandler(handler)
    text = stream.getvalue()
    assert token not in text
    assert text.count(REDACTED) == 2 and "ConnectionError" in text
