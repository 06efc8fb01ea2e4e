"""Every log line names its table (``table=<chat>``, ``table=-`` outside any) and never a
token."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import Iterator

import pytest

from bot.ops.logs import (
    REDACTED,
    RedactingFormatter,
    TableFilter,
    configure_logging,
    follow_games,
    platform_of,
    table_context,
)

TOKEN = "123456:AAH-secret-token"


@pytest.fixture
def lines() -> Iterator[io.StringIO]:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(TableFilter())
    handler.setFormatter(RedactingFormatter([TOKEN]))
    log = logging.getLogger("test.tables")
    log.addHandler(handler)
    log.propagate = False
    log.setLevel(logging.INFO)
    try:
        yield stream
    finally:
        log.removeHandler(handler)


def logged(stream: io.StringIO) -> list[str]:
    return stream.getvalue().splitlines()


def test_a_line_carries_its_table_and_never_a_token(lines: io.StringIO):
    log = logging.getLogger("test.tables")
    log.info("starting")
    with table_context("tg:-100123"):
        log.warning("POST https://api.example/bot%s/sendMessage failed", TOKEN)
        with table_context(7):
            log.info("inner")
        try:
            raise ConnectionError(f"cannot reach /bot{TOKEN}/editMessageText")
        except ConnectionError:
            log.exception("step failed")
    log.info("done", extra={"table": "dc:9"})
    text = lines.getvalue()
    assert TOKEN not in text and text.count(REDACTED) == 2
    out = logged(lines)
    assert " INFO test.tables table=- starting" in out[0]
    assert "table=tg:-100123 POST https://api.example/bot<redacted>/sendMessage" in out[1]
    assert "table=7 inner" in out[2]
    assert "table=tg:-100123 step failed" in out[3]
    assert "ConnectionError: cannot reach /bot<redacted>/" in text
    assert out[-1].endswith("table=dc:9 done")


async def test_tasks_keep_the_table_they_were_started_in(lines: io.StringIO):
    log = logging.getLogger("test.tables")

    async def step(chat: str) -> None:
        with table_context(chat):
            await asyncio.sleep(0.01)  # the other table's step runs meanwhile
            log.info("stepped %s", chat)
            await asyncio.create_task(asyncio.sleep(0))
            log.info("again %s", chat)

    await asyncio.gather(step("tg:1"), step("tg:2"))
    with table_context("tg:3"):
        child = asyncio.create_task(asyncio.sleep(0, "x"))
    await child
    log.info("after")
    for line in logged(lines)[:4]:
        chat = line.rsplit(" ", 1)[1]
        assert f"table={chat} " in line
    assert "table=- after" in logged(lines)[-1]


def test_configure_logging_formats_with_the_table_and_redacts(capsys: pytest.CaptureFixture[str]):
    root = logging.getLogger()
    level = root.level
    handler = configure_logging([TOKEN, ""])
    try:
        with table_context("tg:-5"):
            logging.getLogger("bot.test").warning("token %s", TOKEN)
    finally:
        root.removeHandler(handler)
        root.setLevel(level)
    err = capsys.readouterr().err
    assert "WARNING bot.test table=tg:-5 token <redacted>" in err and TOKEN not in err


def test_a_formatter_alone_still_fills_the_table():
    formatter = RedactingFormatter([TOKEN], "%(table)s|%(message)s")
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "m %s", (TOKEN,), None)
    with table_context("tg:8"):
        assert formatter.format(record) == "tg:8|m <redacted>"


async def test_it_joins_a_lock_in_one_async_with(lines: io.StringIO):
    log = logging.getLogger("test.tables")
    lock = asyncio.Lock()
    async with lock, table_context("tg:-42"):
        log.info("locked")
    log.info("unlocked")
    assert "table=tg:-42 locked" in logged(lines)[0] and "table=- unlocked" in logged(lines)[1]


@pytest.fixture
def configured(capsys: pytest.CaptureFixture[str]) -> Iterator[None]:
    """The root logger as configured by a test; restored afterwards."""
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    try:
        yield
    finally:
        for handler in root.handlers[:]:
            if handler not in handlers:
                root.removeHandler(handler)
        root.setLevel(level)


def test_json_lines_carry_the_table_its_platform_and_game_and_never_a_token(
    configured: None, capsys: pytest.CaptureFixture[str]
):
    configure_logging([TOKEN], "INFO", "json")
    follow_games({"tg:-5": "situan", "dc:7": "erqiwang"}.get)
    log = logging.getLogger("bot.test")
    log.info("outside")
    with table_context("tg:-5"):
        log.warning("token %s", TOKEN)
    with table_context("dc:7"):
        try:
            raise ConnectionError(f"cannot reach /bot{TOKEN}/x")
        except ConnectionError:
            log.exception("step failed")
    with table_context("console"):
        log.info("no table open here yet")
    err = capsys.readouterr().err
    assert TOKEN not in err
    lines = [json.loads(line) for line in err.splitlines()]
    assert len(lines) == 4
    assert {key: lines[0][key] for key in ("level", "logger", "message")} == {
        "level": "INFO",
        "logger": "bot.test",
        "message": "outside",
    }
    assert "table" not in lines[0] and "game" not in lines[0]
    assert lines[0]["time"].endswith("+00:00")
    assert lines[1]["message"] == f"token {REDACTED}"
    assert (lines[1]["table"], lines[1]["platform"], lines[1]["game"]) == (
        "tg:-5",
        "telegram",
        "situan",
    )
    assert (lines[2]["platform"], lines[2]["game"]) == ("discord", "erqiwang")
    assert "ConnectionError: cannot reach /bot<redacted>/x" in lines[2]["exception"]
    assert lines[3]["platform"] == "console" and "game" not in lines[3]


def test_the_level_leaves_out_what_is_below_it(
    configured: None, capsys: pytest.CaptureFixture[str]
):
    configure_logging([], "WARNING")
    logging.getLogger("bot.test").info("quiet")
    logging.getLogger("bot.test").warning("heard")
    err = capsys.readouterr().err
    assert "quiet" not in err and "WARNING bot.test table=- heard" in err
    configure_logging([], "DEBUG")
    logging.getLogger("bot.test").debug("detail")
    assert "DEBUG bot.test table=- detail" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("chat", "platform"),
    [("tg:-100123", "telegram"), ("dc:42", "discord"), ("console", "console"), ("xy:1", "xy")],
)
def test_a_chat_names_its_platform(chat: str, platform: str):
    assert platform_of(chat) == platform
