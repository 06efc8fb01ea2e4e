"""Secrets masked where they stand — a URL's password field, a token as a value of its own —
never by replacing their text wherever it occurs (`bot.ops.masking`)."""

from __future__ import annotations

import io
import logging

import pytest

from adapters.startup import scrubbed
from bot.ops.logs import REDACTED, RedactingFormatter
from bot.ops.masking import masked_urls, masked_values


@pytest.mark.parametrize("password", ["p", "bot", "cardbot", "s3cr:et"])
def test_a_urls_password_field_is_masked_and_nothing_around_it(password: str):
    line = f"python -m bot migrate: postgresql://cardbot:{password}@db:5432/cardbot?sslmode=off"
    assert masked_urls(line) == (
        "python -m bot migrate: postgresql://cardbot:***@db:5432/cardbot?sslmode=off"
    )
    assert masked_urls(f"postgres://h/cardbot?user=bot&password={password}") == (
        "postgres://h/cardbot?user=bot&password=***"
    )
    assert masked_urls("postgresql://cardbot@db/cardbot and /tmp/x:y@z") == (
        "postgresql://cardbot@db/cardbot and /tmp/x:y@z"  # no password field: nothing masked
    )


def test_a_secret_is_masked_where_it_stands_alone():
    assert masked_values("python -m bot: p, (p) 'p'", ["p"]) == "python -m bot: ***, (***) '***'"
    assert masked_values("cardbot bot-1 robot bot", ["bot"]) == "cardbot bot-1 robot ***"
    token = "123456:AAH-secret"
    line = f"GET https://api.example/bot{token}/getMe: token {token}, id 123456, 91234567"
    assert masked_values(line, [token, "123456", "AAH-secret"]) == (
        "GET https://api.example/bot***/getMe: token ***, id ***, 91234567"
    )


def test_a_platform_error_loses_the_token_and_keeps_its_words():
    token = "123456:AAH-bot"
    text = f"python-telegram-bot: Unauthorized for bot{token}: the bot token AAH-bot was rejected"
    assert scrubbed(text, token) == (
        "python-telegram-bot: Unauthorized for bot***: the bot token *** was rejected"
    )


def test_log_lines_mask_short_secrets_only_where_they_stand():
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(RedactingFormatter(["p", "123:tok"], fmt="%(message)s"))
    log = logging.getLogger("test.masking")
    log.addHandler(handler)
    log.propagate = False
    try:
        log.warning("posting to /bot123:tok/sendMessage as p, postgresql://u:bot@h/d")
    finally:
        log.removeHandler(handler)
    assert stream.getvalue() == (
        f"posting to /bot{REDACTED}/sendMessage as {REDACTED}, postgresql://u:{REDACTED}@h/d\n"
    )
