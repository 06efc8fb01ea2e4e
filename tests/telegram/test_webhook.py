"""Webhook mode: Telegram posts updates to the bot's own HTTP server, which accepts them only
with the secret token it registered through setWebhook."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import resource
import socket
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from adapters.serving import RefusalLog, ServerLimits
from adapters.telegram.app import TelegramAdapter, TelegramSettings
from adapters.telegram.webhook import Webhook
from bot.hosting.manager import TableManager
from storage import Database
from tests.telegram.fake_bot_api import FakeBotAPI, text_update, user


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_webhook_mode_registers_a_secret_and_refuses_posts_without_it(tmp_path):
    api = FakeBotAPI()
    base = await api.start()
    db = await Database.open(str(tmp_path / "wh.sqlite3"))
    port = free_port()
    settings = TelegramSettings(
        token="123:TEST",
        base_url=base,
        webhook_url="https://cards.example/telegram",
        webhook_listen="127.0.0.1",
        webhook_port=port,
        webhook_secret="s3cret-token",
    )
    manager = TableManager(db, lambda m: asyncio.sleep(0))
    adapter = TelegramAdapter(manager, db, settings, "zh-Hans")
    manager.send = adapter.outbox
    await adapter.start()
    try:
        registered = api.calls_to("setWebhook")
        assert registered and registered[-1].params["secret_token"] == "s3cret-token"
        assert registered[-1].params["url"] == "https://cards.example/telegram"
        update = text_update(user(11, "Ann"), 11, "/start")
        update["update_id"] = 1
        url = f"http://127.0.0.1:{port}/telegram"
        async with aiohttp.ClientSession() as session:
            async with session.post(url, json=update) as refused:
                assert refused.status == 403
            headers = {
                "X-Telegram-Bot-Api-Secret-Token": "s3cret-token",
                "Content-Type": "application/json",
            }
            async with session.post(url, data=json.dumps(update), headers=headers) as accepted:
                assert accepted.status == 200
            health = f"http://127.0.0.1:{port}/healthz"  # for a load balancer, on this port
            async with session.get(health) as answer:
                assert answer.status == 200
                assert await answer.json() == {
                    "ok": True,
                    "store": "ok",
                    "tables": 0,
                    "adapters": {},
                }
        for _ in range(300):
            if api.chat_messages(11):
                break
            await asyncio.sleep(0.01)
        assert [m["text"] for m in api.chat_messages(11)] == ["你好！你的牌会发到这里。"]
    finally:
        await adapter.stop()
        await api.stop()
        await db.close()


SECRET = {"X-Telegram-Bot-Api-Secret-Token": "s3cret-token", "Content-Type": "application/json"}


@contextlib.asynccontextmanager
async def webhook_bot(
    tmp_path: Path, limits: ServerLimits
) -> AsyncIterator[tuple[FakeBotAPI, Webhook]]:
    """The Telegram adapter in webhook mode on 127.0.0.1, its server kept to ``limits``."""
    api = FakeBotAPI()
    base = await api.start()
    db = await Database.open(str(tmp_path / "wh.sqlite3"))
    settings = TelegramSettings(
        token="123:TEST",
        base_url=base,
        webhook_url="https://cards.example/telegram",
        webhook_listen="127.0.0.1",
        webhook_port=free_port(),
        webhook_secret="s3cret-token",
        webhook_limits=limits,
    )
    manager = TableManager(db, lambda m: asyncio.sleep(0))
    adapter = TelegramAdapter(manager, db, settings, "zh-Hans")
    manager.send = adapter.outbox
    await adapter.start()
    try:
        assert adapter.webhook is not None
        yield api, adapter.webhook
    finally:
        await adapter.stop()
        await api.stop()
        await db.close()


def start_update(user_id: int, update_id: int) -> dict[str, Any]:
    update = text_update(user(user_id, "Ann"), user_id, "/start")
    update["update_id"] = update_id
    return update


async def closed_by_server(reader: asyncio.StreamReader) -> None:
    with contextlib.suppress(ConnectionError):
        while await reader.read(1024):
            pass


def open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


async def test_300_half_open_connections_are_closed_in_time_and_a_real_update_still_answered(
    tmp_path: Path,
):
    """The audit's slow client: connections that send half a request line and nothing more.
    The server keeps at most its cap of them (so the process stays under a file limit that
    300 more would pass), closes each within the header timeout, and answers a real update
    meanwhile."""
    limits = ServerLimits(header_timeout=1.5, max_connections=50)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    async with webhook_bot(tmp_path, limits) as (api, webhook):
        # room for the 300 clients' ends, the cap's server ends and a margin: not for 300 more
        resource.setrlimit(resource.RLIMIT_NOFILE, (open_files() + 300 + 50 + 60, hard))
        slow: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
        try:
            for _ in range(300):
                reader, writer = await asyncio.open_connection("127.0.0.1", webhook.port)
                writer.write(b"POST /telegram HT")
                slow.append((reader, writer))
            last_opened = time.monotonic()
            url = f"http://127.0.0.1:{webhook.port}/telegram"
            timeout = aiohttp.ClientTimeout(total=2)
            async with (
                aiohttp.ClientSession(timeout=timeout) as session,
                session.post(url, data=json.dumps(start_update(11, 1)), headers=SECRET) as answer,
            ):
                assert answer.status == 200
            answered_in = time.monotonic() - last_opened
            for _ in range(200):
                if api.chat_messages(11):
                    break
                await asyncio.sleep(0.01)
            assert [m["text"] for m in api.chat_messages(11)] == ["你好！你的牌会发到这里。"]
            waits = [closed_by_server(reader) for reader, _ in slow]
            await asyncio.wait_for(asyncio.gather(*waits), timeout=limits.header_timeout + 3)
            all_closed_in = time.monotonic() - last_opened
        finally:
            for _, writer in slow:
                writer.close()
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
        assert answered_in < 2.0
        assert all_closed_in < limits.header_timeout + 3
        assert webhook.most_connections <= 50


async def test_past_the_cap_with_every_connection_busy_a_new_one_is_closed_at_once(
    tmp_path: Path,
):
    """Two connections sending their bodies slowly are busy, not waiting for headers: a third
    is accepted and closed at once rather than waiting in the kernel's queue."""
    limits = ServerLimits(max_connections=2, body_timeout=30)
    async with webhook_bot(tmp_path, limits) as (_, webhook):
        busy = []
        head = b"POST /telegram HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n"
        secret = b"X-Telegram-Bot-Api-Secret-Token: s3cret-token\r\n\r\n{"
        for _ in range(2):
            reader, writer = await asyncio.open_connection("127.0.0.1", webhook.port)
            writer.write(head + secret)
            busy.append((reader, writer))
        await asyncio.sleep(0.1)  # let the server parse both heads (a hold-up, not a sync)
        reader, writer = await asyncio.open_connection("127.0.0.1", webhook.port)
        try:
            await asyncio.wait_for(closed_by_server(reader), timeout=2)
            for busy_reader, _ in busy:  # the busy ones are still open
                assert not busy_reader.at_eof()
        finally:
            writer.close()
            for _, busy_writer in busy:
                busy_writer.close()


def chat_null(update: dict[str, Any]) -> dict[str, Any]:
    update["message"]["chat"] = None
    return update


@pytest.mark.parametrize(
    ("body", "status"),
    [
        (b"x" * 600_000, 413),
        (b"{not json", 400),
        (b"[1, 2]", 400),
        (b"null", 400),
        (b'{"hello": "there"}', 400),
        (json.dumps(chat_null(start_update(11, 2))).encode(), 400),
        (json.dumps({**start_update(11, 3), "update_id": "3"}).encode(), 400),
    ],
    ids=["too big", "not JSON", "a list", "null", "no update_id", "chat null", "id a string"],
)
async def test_a_post_that_is_not_an_update_gets_a_4xx_and_no_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, body: bytes, status: int
):
    caplog.set_level(logging.DEBUG)
    async with webhook_bot(tmp_path, ServerLimits(max_body=512 * 1024)) as (api, webhook):
        url = f"http://127.0.0.1:{webhook.port}/telegram"
        async with aiohttp.ClientSession() as session:
            for _ in range(3):
                async with session.post(url, data=body, headers=SECRET) as answer:
                    assert answer.status == status
            update = json.dumps(start_update(12, 9))
            async with session.post(url, data=update, headers=SECRET) as ok:
                assert ok.status == 200
        for _ in range(300):  # the real update after them is answered
            if api.chat_messages(12):
                break
            await asyncio.sleep(0.01)
        assert len(api.chat_messages(12)) == 1
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
    refusals = [r for r in caplog.records if r.getMessage().startswith("refused a post")]
    assert len(refusals) == 1  # three refused, one line a minute
    assert api.chat_messages(11) == []


async def test_a_body_sent_too_slowly_gets_408(tmp_path: Path):
    async with webhook_bot(tmp_path, ServerLimits(body_timeout=0.5)) as (_, webhook):
        reader, writer = await asyncio.open_connection("127.0.0.1", webhook.port)
        try:
            writer.write(
                b"POST /telegram HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n"
                b"X-Telegram-Bot-Api-Secret-Token: s3cret-token\r\n\r\n{"
            )
            status_line = await asyncio.wait_for(reader.readline(), timeout=3)
            assert status_line.startswith(b"HTTP/1.1 408")
        finally:
            writer.close()


def test_refusal_lines_are_one_per_period_counting_the_rest(caplog: pytest.LogCaptureFixture):
    now = [0.0]
    refusals = RefusalLog(logging.getLogger("test.refusals"), 60.0, clock=lambda: now[0])
    with caplog.at_level(logging.WARNING, logger="test.refusals"):
        for second in range(0, 130):
            now[0] = float(second)
            refusals.refused("a post (403)")
    lines = [r.getMessage() for r in caplog.records]
    assert lines == [
        "refused a post (403)",
        "refused a post (403) (59 more refused since the last such line)",
        "refused a post (403) (59 more refused since the last such line)",
    ]
