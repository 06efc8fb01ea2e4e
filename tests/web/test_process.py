"""The bot as a process with its web table (issue 51 items 6 and 8, issue 52's ``/readyz``):
``python -m bot`` on Telegram (the fake Bot API) with the web table and the health listener,
SIGTERM'd under load, kill -9'd with its AI workers running."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from adapters.web.auth import WATCH, LinkSigner
from tests.pg_server import free_port
from tests.telegram.fake_bot_api import FakeBotAPI, text_update, user

ROOT = Path(__file__).parents[2]
SECRET = "a-web-link-secret-for-tests"
GROUP = -500
CHAT = f"tg:{GROUP}"


def descendants(pid: int) -> set[int]:
    """Every process under ``pid`` (children, theirs, …), from /proc."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                stat = Path(f"/proc/{entry}/stat").read_text()
                parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier}
        found |= frontier
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has ended: only its parent's wait is missing


class Bot:
    def __init__(self, process: asyncio.subprocess.Process, web: int, health: int) -> None:
        self.process, self.web, self.health = process, web, health

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.web}/table/ws"


@contextlib.asynccontextmanager
async def running_bot(
    tmp_path: Path, log: bool = True, **env: str
) -> AsyncIterator[tuple[FakeBotAPI, Bot]]:
    """The bot with its web table and health listener; ``log``: its stderr read back (a pipe
    its child processes hold too: without it, waiting for an end never waits on them)."""
    api = FakeBotAPI()
    base = await api.start()
    web, health = free_port(), free_port()
    environment = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("BOT_", "TELEGRAM_", "DISCORD_", "WEB_"))
    }
    environment.update(
        TELEGRAM_BOT_TOKEN="1:T",
        TELEGRAM_API_BASE_URL=base,
        BOT_DB=str(tmp_path / "b.sqlite3"),
        BOT_HEALTH_PORT=str(health),
        BOT_HEALTH_LISTEN="127.0.0.1",
        BOT_AI_WORKERS="0",
        WEB_PUBLIC_URL=f"http://127.0.0.1:{web}",
        WEB_LISTEN="127.0.0.1",
        WEB_PORT=str(web),
        WEB_LINK_SECRET=SECRET,
        PYTHONPATH=str(ROOT),
    )
    environment.update(env)
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        env=environment,
        cwd=ROOT,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE if log else asyncio.subprocess.DEVNULL,
    )
    bot = Bot(process, web, health)
    try:
        await until_healthy(bot)
        yield api, bot
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
        await api.stop()


async def until_healthy(bot: Bot) -> None:
    """Until ``/healthz`` says 200 and the web table answers (it starts last)."""
    async with aiohttp.ClientSession() as session:
        for _ in range(600):
            with contextlib.suppress(aiohttp.ClientError):
                async with session.get(f"http://127.0.0.1:{bot.health}/healthz") as answer:
                    healthy = answer.status == 200
                async with session.get(f"http://127.0.0.1:{bot.web}/table") as answer:
                    if healthy and answer.status == 200:
                        return
            if bot.process.returncode is not None:
                raise AssertionError("the bot ended at start")
            await asyncio.sleep(0.05)
    raise AssertionError("the bot never answered /healthz")


async def a_table(api: FakeBotAPI, bot: Bot, session: aiohttp.ClientSession) -> None:
    """A table at the group (/new there), once the bot has it: a watch link's hello gets its
    state rather than ``gone``."""
    update = text_update(user(11, "Ann"), GROUP, "/new situan")
    update["message"]["chat"] = {"id": GROUP, "type": "group", "title": "Room"}
    api.push(update)
    for _ in range(400):
        if (await spectator(bot, session)).get("type") == "state":
            return
        await asyncio.sleep(0.05)
    raise AssertionError("no table at the group")


def watch_link(number: int) -> str:
    return "Link " + LinkSigner(SECRET.encode()).sign(f"tg:u{900 + number}", CHAT, WATCH)


async def spectator(bot: Bot, session: aiohttp.ClientSession, number: int = 0) -> Any:
    async with session.ws_connect(bot.ws) as page:
        await page.send_json({"type": "hello", "auth": watch_link(number)})
        return await asyncio.wait_for(page.receive_json(), timeout=10)


ORPHANS_GONE = 30.0
"""Seconds a killed bot's processes may take to notice and end, however loaded the machine."""


async def test_sigterm_with_open_spectator_pages_and_slow_clients_exits_by_itself(
    tmp_path: Path,
):
    async with running_bot(tmp_path) as (api, bot), aiohttp.ClientSession() as session:
        await a_table(api, bot, session)
        pages, sessions = [], []
        for number in range(40):  # forty spectators (four a household), each told the state
            if number % 4 == 0:
                connector = aiohttp.TCPConnector(local_addr=(f"127.0.1.{number // 4}", 0))
                sessions.append(aiohttp.ClientSession(connector=connector))
            page = await sessions[-1].ws_connect(bot.ws)
            await page.send_json({"type": "hello", "auth": watch_link(number)})
            assert (await asyncio.wait_for(page.receive_json(), timeout=10))["type"] == "state"
            pages.append(page)
        silent = [await session.ws_connect(bot.ws) for _ in range(10)]  # no hello yet
        slow = []
        for _ in range(30):  # and slow bodies from another address
            _, writer = await asyncio.open_connection(
                "127.0.0.1", bot.web, local_addr=("127.0.0.3", 0)
            )
            writer.write(b"POST /replay/api HTTP/1.1\r\nHost: x\r\nContent-Length: 900\r\n\r\n[")
            slow.append(writer)
        started = time.monotonic()
        bot.process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(bot.process.wait(), timeout=30)
        finally:
            took = time.monotonic() - started
            for writer in slow:
                writer.close()
        assert bot.process.stderr is not None
        errors = (await bot.process.stderr.read()).decode()
        for socket in pages + silent:
            await socket.close()
        for household in sessions:
            await household.close()
    print(f"SIGTERM with 40 pages, 10 silent sockets and 30 slow bodies: exited in {took:.2f} s")
    assert bot.process.returncode == 0
    # Exited by itself, under 30 s (the audit saw over 60 s); how soon (under 5 s, the issue's
    # bound) is a speed a loaded machine stretches: `python bench/web_door.py --only sigterm`.
    assert "Traceback" not in errors and "ERROR" not in errors, errors[-2000:]


async def test_kill_9_leaves_no_worker_behind(tmp_path: Path):
    """AI workers (and the replay worker, and multiprocessing's resource tracker) end with
    the bot: kill -9 it, and soon none of its processes is alive — within `ORPHANS_GONE`, a
    bound only a process that never ends breaks (they end as soon as the bot does; on the old code
    they ran on for good)."""
    async with running_bot(tmp_path, log=False, BOT_AI_WORKERS="2") as (api, bot):
        async with aiohttp.ClientSession() as session:
            await a_table(api, bot, session)  # the timers run: the AI workers are started
            async with session.post(
                f"http://127.0.0.1:{bot.web}/replay/api", data=b'{"game": "none"}'
            ) as answer:
                assert answer.status == 400  # answered by the replay worker
        pid = bot.process.pid
        for _ in range(600):  # the workers are spawned while the tables run
            under = descendants(pid)
            if len(under) >= 3:  # two AI workers and the resource tracker (and the replay's)
                break
            await asyncio.sleep(0.05)
        assert len(under) >= 3, under
        bot.process.kill()
        await bot.process.wait()
        killed = time.monotonic()
        while time.monotonic() - killed < ORPHANS_GONE and any(alive(p) for p in under):
            await asyncio.sleep(0.05)
        left = sorted(p for p in under if alive(p))
        for orphan in left:  # (on the old code: not to leave them running after the test)
            with contextlib.suppress(OSError):
                os.kill(orphan, signal.SIGKILL)
        assert left == [], f"alive {ORPHANS_GONE:g} s after kill -9: {left}"


async def test_readyz_is_503_until_the_store_is_open_and_the_adapters_started(tmp_path: Path):
    """``/readyz`` answers from before the store opens (here a PostgreSQL address that
    accepts and never answers) with 503, and 200 once the bot runs."""
    from adapters.platforms import run_platforms

    silent_clients: list[asyncio.StreamWriter] = []

    async def never_answers(_: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        silent_clients.append(writer)

    store = await asyncio.start_server(never_answers, "127.0.0.1", 0)
    store_port = store.sockets[0].getsockname()[1]
    health = free_port()
    env = {"BOT_HEALTH_PORT": str(health), "BOT_HEALTH_LISTEN": "127.0.0.1"}
    address = f"postgresql://u:p@127.0.0.1:{store_port}/cards"
    opening = asyncio.create_task(run_platforms(env, address, "en", asyncio.Event()))
    try:
        status = await first_status(f"http://127.0.0.1:{health}/readyz")
        assert status == 503
        assert silent_clients  # the store is being opened: it has not answered
    finally:
        opening.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await opening
        store.close()
        for writer in silent_clients:
            writer.close()
    stop = asyncio.Event()
    running = asyncio.create_task(run_platforms(env, str(tmp_path / "r.sqlite3"), "en", stop))
    try:
        for _ in range(400):
            if await first_status(f"http://127.0.0.1:{health}/readyz") == 200:
                break
            await asyncio.sleep(0.05)
        else:
            pytest.fail("/readyz never said 200")
    finally:
        stop.set()
        assert await asyncio.wait_for(running, timeout=20) == 0


async def first_status(url: str) -> int:
    async with aiohttp.ClientSession() as session:
        for _ in range(400):
            with contextlib.suppress(aiohttp.ClientConnectionError):
                async with session.get(url) as answer:
                    return answer.status
            await asyncio.sleep(0.05)
    raise AssertionError(f"{url} never answered")
