"""The audit's attacks on the web table (issue 51), re-run against the real bot process.

Run: ``python bench/web_door.py [--only slow,silent,nested,replay,flood,small,sigterm,kill]``

``python -m bot`` runs on Telegram (the tests' fake Bot API, on 127.0.0.1) with its web table
(``WEB_PORT``) and its health listener (``BOT_HEALTH_PORT``), in a process of its own, so that
the attackers (this process) do not share its event loop. Attackers connect from 127.0.0.1;
the measured visitor from other loopback addresses (127.0.0.2 …). Each attack prints what the
audit measured beside what this tree does, and the bot's log lines during it (how many, how
many ERROR, how many tracebacks). The same script runs on an older tree: copy it and
``tests/web/world.py`` there and run it with that tree on ``PYTHONPATH``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from adapters.web.auth import WATCH, LinkSigner
from storage import Database
from tests.pg_server import free_port
from tests.telegram.fake_bot_api import FakeBotAPI, text_update, user
from tests.web.world import World, init_data

ROOT = Path(__file__).resolve().parent.parent
SECRET = "a-web-link-secret-for-the-bench"
TOKEN = "1:T"
GROUP = -500
CHAT = f"tg:{GROUP}"
NESTED = "[" * 100_000 + "]" * 100_000


def p(samples: list[float], share: float) -> float:
    ranked = sorted(samples)
    return ranked[min(len(ranked) - 1, int(len(ranked) * share))] * 1000


def watch(number: int) -> str:
    return "Link " + LinkSigner(SECRET.encode()).sign(f"tg:u{900 + number}", CHAT, WATCH)


def session_from(address: str, **options: Any) -> aiohttp.ClientSession:
    connector = aiohttp.TCPConnector(local_addr=(address, 0), force_close=True, limit=0)
    return aiohttp.ClientSession(connector=connector, **options)


class Bot:
    """``python -m bot`` with its web table, its stderr (the log) read as it comes."""

    def __init__(self, folder: Path, workers: int = 0, log: bool = True) -> None:
        self.folder, self.workers, self.log = folder, workers, log
        self.web, self.health = free_port(), free_port()
        self.api = FakeBotAPI()
        self.lines: list[str] = []
        self.process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        base = await self.api.start()
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("BOT_", "TELEGRAM_", "DISCORD_", "WEB_"))
        }
        env.update(
            TELEGRAM_BOT_TOKEN=TOKEN,
            TELEGRAM_API_BASE_URL=base,
            PYTHONPATH=str(ROOT),
            BOT_DB=str(self.folder / "bot.sqlite3"),
            BOT_HEALTH_PORT=str(self.health),
            BOT_HEALTH_LISTEN="127.0.0.1",
            BOT_AI_WORKERS=str(self.workers),
            WEB_PUBLIC_URL=f"http://127.0.0.1:{self.web}",
            WEB_LISTEN="127.0.0.1",
            WEB_PORT=str(self.web),
            WEB_LINK_SECRET=SECRET,
        )
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            env=env,
            cwd=ROOT,
            stdout=asyncio.subprocess.DEVNULL,
            # (no pipe for a kill -9: orphans holding it would keep asyncio waiting for it)
            stderr=asyncio.subprocess.PIPE if self.log else asyncio.subprocess.DEVNULL,
        )
        if self.log:
            self._reading = asyncio.create_task(self._read_log())
        async with aiohttp.ClientSession() as session:
            for _ in range(600):
                with contextlib.suppress(aiohttp.ClientError):
                    async with session.get(f"http://127.0.0.1:{self.web}/table") as answer:
                        if answer.status == 200:
                            break
                await asyncio.sleep(0.05)
        update = text_update(user(11, "Ann"), GROUP, "/new situan")
        update["message"]["chat"] = {"id": GROUP, "type": "group", "title": "Room"}
        self.api.push(update)
        async with aiohttp.ClientSession() as session:
            for _ in range(400):
                if (await self.hello(session, watch(0))).get("type") == "state":
                    return
                await asyncio.sleep(0.05)
        raise SystemExit("the bot has no table")

    async def _read_log(self) -> None:
        assert self.process is not None and self.process.stderr is not None
        async for line in self.process.stderr:
            self.lines.append(line.decode(errors="replace"))

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.web}"

    async def hello(self, session: aiohttp.ClientSession, auth: str) -> Any:
        async with session.ws_connect(self.url + "/table/ws") as page:
            await page.send_json({"type": "hello", "auth": auth})
            return await asyncio.wait_for(page.receive_json(), timeout=10)

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.kill()
            await self.process.wait()
        await self.api.stop()


def log_since(bot: Bot, start: int) -> str:
    lines = bot.lines[start:]
    errors = sum(" ERROR " in line or '"level": "ERROR"' in line for line in lines)
    tracebacks = sum(line.startswith("Traceback") for line in lines)
    size = sum(len(line) for line in lines)
    return f"log: {len(lines)} lines, {size} bytes, {errors} ERROR, {tracebacks} tracebacks"


async def visitor_round(bot: Bot, count: int, source: str = "127.0.0.2") -> tuple[int, list[float]]:
    """``count`` GET /table and ``count`` /healthz from ``source``: how many answered, and the
    /healthz round trips."""
    answered, waits = 0, []
    async with session_from(source, timeout=aiohttp.ClientTimeout(total=5)) as session:
        for _ in range(count):
            with contextlib.suppress(aiohttp.ClientError, TimeoutError):
                async with session.get(bot.url + "/table") as answer:
                    answered += answer.status == 200
            started = time.perf_counter()
            with contextlib.suppress(aiohttp.ClientError, TimeoutError):
                async with session.get(f"http://127.0.0.1:{bot.health}/healthz") as answer:
                    if answer.status == 200:
                        waits.append(time.perf_counter() - started)
    return answered, waits


async def slow(bot: Bot) -> None:
    start = len(bot.lines)
    writers = []
    for _ in range(150):
        with contextlib.suppress(OSError):
            _, writer = await asyncio.open_connection("127.0.0.1", bot.web)
            writer.write(b"POST /replay/api HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n[")
            writers.append(writer)
    await asyncio.sleep(0.5)
    pages, waits = await visitor_round(bot, 72)
    for writer in writers:
        writer.close()
    shown = f"p99 {p(waits, 0.99):.1f} ms" if waits else "none"
    print(
        f"150 slow bodies: the page loaded {pages}/72, /healthz answered {len(waits)}/72 "
        f"({shown}) [audit: 256 resets, /healthz 0 of 72 on a shared port]; "
        f"{log_since(bot, start)}"
    )


async def silent(bot: Bot) -> None:
    start = len(bot.lines)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as attacker:
        sockets = await asyncio.gather(
            *(attacker.ws_connect(bot.url + "/table/ws") for _ in range(500)),
            return_exceptions=True,
        )
        states = 0
        async with session_from("127.0.0.2", timeout=aiohttp.ClientTimeout(total=5)) as visitor:
            for number in range(72):
                with contextlib.suppress(aiohttp.ClientError, TimeoutError):
                    states += (await bot.hello(visitor, watch(number))).get("type") == "state"
        for socket in sockets:
            if isinstance(socket, aiohttp.ClientWebSocketResponse):
                await socket.close()
    print(
        f"500 unhelloed WebSockets: a page got its state {states}/72 [audit: locked out]; "
        f"{log_since(bot, start)}"
    )
    start = len(bot.lines)
    async with aiohttp.ClientSession() as session:
        for _ in range(100):
            socket = await session.ws_connect(bot.url + "/table/ws")
            await socket.close()
    await asyncio.sleep(0.5)
    print(
        f"100 WebSockets closed before their hello: {log_since(bot, start)} "
        f"[audit (issue 52): an ERROR with a traceback each]"
    )


async def nested(bot: Bot) -> None:
    start = len(bot.lines)
    statuses = {}
    async with aiohttp.ClientSession() as session:
        for path in ("/table/api/state", "/table/api/check", "/table/api/act", "/replay/api"):
            async with session.post(
                bot.url + path, data=NESTED, headers={"Authorization": watch(1)}
            ) as answer:
                statuses[path] = answer.status
        async with session.ws_connect(bot.url + "/table/ws") as socket:
            await socket.send_str("[" * 8000 + "]" * 8000)
            while (await socket.receive()).type == aiohttp.WSMsgType.TEXT:
                pass
            statuses["WebSocket hello (close code)"] = socket.close_code or 0
    shown = ", ".join(f"{k} {v}" for k, v in statuses.items())
    print(f"nested JSON: {shown} [audit: 500, 500, 500, 500, 1006]; {log_since(bot, start)}")


async def a_record() -> bytes:
    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(str(Path(folder) / "r.sqlite3"))
        world = await World.open(db, "situan", "en", telegram=False)
        try:
            await world.drive_to_the_end()
            hands = [h for h in await db.hands_of(world.chat) if h.result is not None]
            record = dict(hands[-1].start)
            record["actions"] = hands[-1].actions
            return json.dumps(record).encode()
        finally:
            await world.close()
            await db.close()


async def round_trips(bot: Bot, count: int) -> list[float]:
    took = []
    async with session_from("127.0.0.9") as session:
        for _ in range(count):
            started = time.perf_counter()
            async with session.post(
                bot.url + "/table/api/state", json={}, headers={"Authorization": watch(2)}
            ) as answer:
                await answer.read()
            took.append(time.perf_counter() - started)
            await asyncio.sleep(0.01)
    return took


async def replay(bot: Bot) -> None:
    record = await a_record()
    start = len(bot.lines)
    alone = await round_trips(bot, 100)
    stop, statuses = asyncio.Event(), []

    async def flood(client: int) -> None:
        """One flooding client, from a new address each time (as many machines would be: no
        per-client limit holds it back, only the server's own bound on replays)."""
        for turn in itertools.count():
            if stop.is_set():
                return
            async with session_from(f"127.0.{10 + client}.{turn % 250 + 1}") as session:
                with contextlib.suppress(aiohttp.ClientError):
                    async with session.post(bot.url + "/replay/api", data=record) as answer:
                        await answer.read()
                        statuses.append(answer.status)
                        if answer.status != 200:
                            await asyncio.sleep(0.01)

    floods = [asyncio.create_task(flood(n)) for n in range(4)]
    await asyncio.sleep(3)  # the worker has started
    before = len(statuses)
    during = await round_trips(bot, 100)
    done = statuses[before:]
    stop.set()
    await asyncio.gather(*floods)
    print(
        f"four replay floods ({len(record)} B record): another table's round trip "
        f"p50/p99 {p(alone, 0.5):.1f}/{p(alone, 0.99):.1f} ms alone, "
        f"{p(during, 0.5):.1f}/{p(during, 0.99):.1f} ms under the floods "
        f"({done.count(200)} replays answered, {len(done) - done.count(200)} refused "
        f"meanwhile) [audit: 0.9 -> 587 ms p50]; {log_since(bot, start)}"
    )


async def flood(bot: Bot) -> None:
    start = len(bot.lines)
    alone = await round_trips(bot, 50)
    async with aiohttp.ClientSession() as session:
        page = await session.ws_connect(bot.url + "/table/ws")
        await page.send_json({"type": "hello", "auth": watch(3)})
        await page.receive_json()
        check = json.dumps({"type": "check", "action": "play", "cards": ["S2"]})
        closed: list[float] = []

        async def read() -> None:
            with contextlib.suppress(Exception):
                while (await page.receive()).type == aiohttp.WSMsgType.TEXT:
                    pass
            closed.append(time.monotonic())

        reading = asyncio.create_task(read())
        sent, started = 0, time.monotonic()
        measuring = asyncio.create_task(round_trips(bot, 50))
        with contextlib.suppress(ConnectionError, RuntimeError):
            while time.monotonic() - started < 26 and not closed:
                await page.send_str(check)
                sent += 1
                if sent % 20 == 0:
                    await asyncio.sleep(0)  # let the reader see a close
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(reading, 10)
        during = await measuring
        if closed:
            outcome = (
                f"closed with {page.close_code} {(closed[0] - started) * 1000:.0f} ms "
                f"after its first message ({sent} sent by then)"
            )
        else:
            outcome = f"still open after {time.monotonic() - started:.0f} s and {sent} messages"
        await page.close()
    print(
        f"a flooding page: {outcome}; "
        f"another page's p99 {p(alone, 0.99):.1f} ms alone, {p(during, 0.99):.1f} ms meanwhile "
        f"[audit: 1.7 million in 26 s accepted, p99 1.2 -> 120 ms]; {log_since(bot, start)}"
    )


async def small(bot: Bot) -> None:
    long = "N" * 100_000
    update = text_update(user(12, long), GROUP, "/join")
    update["message"]["chat"] = {"id": GROUP, "type": "group", "title": "Room"}
    bot.api.push(update)
    await asyncio.sleep(2)
    echoed = max((len(m.get("text", "")) for m in bot.api.chat_messages(GROUP)), default=0)
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            bot.url + "/table/api/state", json={}, headers={"Authorization": watch(5)}
        ) as answer,
    ):
        seats = (await answer.json())["state"]["seats"]
    stored = max(len(seat["name"]) for seat in seats)
    answers = await stranger_answers()
    async with aiohttp.ClientSession() as session:
        statuses = []
        for _ in range(100):
            async with session.post(
                bot.url + "/table/api/check",
                json={"action": "play"},
                headers={"Authorization": watch(4)},
            ) as answer:
                statuses.append(answer.status)
    print(
        f"a 100,000-character name: the seat's name on the web table {stored} characters, "
        f"the longest group message {echoed} [audit: 100,010 echoed]; a stranger's answer, "
        f"a table there: {answers[0]!r}, none there: "
        f"{answers[1]!r} [audit: 401 vs 404]; 100 quick HTTP checks: "
        f"{statuses.count(429)} refused 429 [audit: none]"
    )


async def stranger_answers() -> list[str]:
    """What a Mini App user who may not see a table is told there, and at a chat with no
    table (a table served in this process, as the tests do: no one is let watch here)."""
    from adapters.web.links import table_param

    answers = []
    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(str(Path(folder) / "s.sqlite3"))
        world = await World.open(db, "situan", "en", telegram=True)
        try:
            async with aiohttp.ClientSession() as session:
                for table in (world.chat, "tg:-999"):
                    body = {"table": table_param(table)}
                    headers = {"Authorization": "tma " + init_data(777)}
                    url = world.base + "/table/api/state"
                    async with session.post(url, json=body, headers=headers) as answer:
                        answers.append(f"{answer.status} {(await answer.text())[:60]}")
        finally:
            await world.close()
            await db.close()
    return answers


async def sigterm(bot: Bot) -> None:
    sessions, pages = [], []
    for number in range(40):
        if number % 4 == 0:
            sessions.append(session_from(f"127.0.1.{number // 4}"))
        page = await sessions[-1].ws_connect(bot.url + "/table/ws")
        await page.send_json({"type": "hello", "auth": watch(10 + number)})
        await page.receive_json()
        pages.append(page)
    assert bot.process is not None
    started = time.monotonic()
    bot.process.send_signal(signal.SIGTERM)
    try:
        await asyncio.wait_for(bot.process.wait(), timeout=70)
        took = f"{time.monotonic() - started:.2f} s, exit code {bot.process.returncode}"
    except TimeoutError:
        took = "over 70 s (killed)"
    for page in pages:
        await page.close()
    for session in sessions:
        await session.close()
    print(f"SIGTERM with 40 spectator pages open: exited in {took} [audit: over 60 s]")


def descendants(pid: int) -> set[int]:
    parents = {}
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


async def kill(bot: Bot) -> None:
    assert bot.process is not None
    async with (
        aiohttp.ClientSession() as session,
        session.post(bot.url + "/replay/api", data=b"{}") as answer,
    ):
        await answer.read()
    await asyncio.sleep(3)
    under = descendants(bot.process.pid)
    bot.process.kill()
    await bot.process.wait()
    await asyncio.sleep(5)
    left = [pid for pid in under if Path(f"/proc/{pid}").exists()]
    print(
        f"kill -9 with {len(under)} processes under the bot: {len(left)} alive 5 s later "
        f"[audit: 18 orphans at ~46 MB each]"
    )
    for pid in left:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


ATTACKS = {"slow": slow, "silent": silent, "nested": nested, "replay": replay, "flood": flood,
           "small": small, "sigterm": sigterm, "kill": kill}  # fmt: skip


async def main(only: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        for name in only:
            killed = name == "kill"
            bot = Bot(Path(folder) / name, workers=2 if killed else 0, log=not killed)
            (Path(folder) / name).mkdir()
            await bot.start()
            try:
                await ATTACKS[name](bot)
            finally:
                await bot.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=",".join(ATTACKS))
    asyncio.run(main(parser.parse_args().only.split(",")))
