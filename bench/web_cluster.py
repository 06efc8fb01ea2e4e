"""The web table's push latency with pages on several bot processes (issue 50's benchmark):
``python bench/web_latency.py --processes 2 --pages 1000``.

Two bot processes (each its own OS process: a `TableManager` sharing the store by leases,
and its web table) on one PostgreSQL database (the test extra's embedded server). The tables
are spread over both (half opened on each, which then holds them); each table has four pages
— its person's seat and three spectators — two connected to each process, and for half the
tables the person's page is on the process that does not hold the table. A table is one
person on 托管 and three AI seats playing in real time (``--ai-delay`` seconds a move); every
``--toggle-every`` seconds the person's page turns 托管 off and on again over HTTP (two moves
made on a page: forwarded to the owner when the page is on the other process).

Measured: for each step a process stored (the time taken as it was committed, in the owner),
the time until each page of its table had read a state showing that step or a later one (a
page slow to read gets the newest state, not every one between). ``missed``: a (step, page)
a page never saw — counted after the tables stop, once the pages have had two seconds more.
``doubled``: a page's 托管 move stored more often than the pages were told it was taken
(``lost`` the other way). With ``--processes 1`` one process on a SQLite file serves every
page (today's deployment). The last line printed is JSON.
"""

from __future__ import annotations

import asyncio
import bisect
import json
import multiprocessing
import re
import statistics
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import aiohttp

from adapters.serving import ServerLimits
from adapters.web.auth import WATCH, LinkSigner
from bot.hosting.manager import TableManager
from bot.hosting.process_identity import Ownership
from bot.reading.command import parse_command
from bot.views.outgoing import Outgoing
from storage import Database

KEY = b"the-bench-link-key-shared-by-all"
PAGES_PER_TABLE = 4
GAMES = ("situan", "erqiwang")
LIMITS = ServerLimits(max_connections=10_000, per_address=None)
"""Every bench page comes from 127.0.0.1: no per-address limit."""
STEP = re.compile(r'"number":(\d+),"moves":(\d+)')
"""Where a state frame says which step it shows (`bot.page.seat_view.page_state`'s order)."""
CATCH_UP = 2.0
"""Seconds the pages are given after the tables stop, before a step not seen is missed."""


def person(chat: str) -> str:
    return f"person-{chat}"


async def quiet(message: Outgoing) -> None:
    """The chats' posts go nowhere: only the pages are measured."""


# ----------------------------------------------------------------- a bot process


def serve(
    index: int, address: str, chats: list[tuple[str, str]], ai_delay: float, pipe: Connection
) -> None:
    asyncio.run(_serve(index, address, chats, ai_delay, pipe))


async def _serve(
    index: int, address: str, chats: list[tuple[str, str]], ai_delay: float, pipe: Connection
) -> None:
    from adapters.web.server import WebTable

    db = await Database.open(address)
    shared = db.signals is not None
    # A long lease: nobody renews while the pages are being opened (no timers yet).
    ownership = Ownership.started(f"bench-{index}", seconds=120.0) if shared else None
    manager = TableManager(db, quiet, ownership=ownership, seeds=lambda n: 4000 + n)
    stored: list[tuple[str, int, int, float]] = []

    def step_stored(chat: str, state_of: Any) -> None:  # told before the pages are drawn
        table = manager.tables.get(chat)
        if table is not None:
            stored.append((chat, table.hand_number, table.turn_count, time.time()))

    manager.listen_to_steps(step_stored)
    web = WebTable(manager, LinkSigner(KEY), limits=LIMITS)
    runner, port = await web.serve("127.0.0.1", 0)
    for chat, game in chats:
        for text in (
            f"/new {game}",
            f"/settings ai_delay {ai_delay}",
            "/addbot",
            "/addbot",
            "/addbot",
            "/start",
            "/auto on",
        ):
            command = parse_command(text, person(chat), "Ann", chat, lang="en")
            assert command is not None
            await manager.handle(command)
    loop = asyncio.get_running_loop()
    pipe.send(port)
    assert await loop.run_in_executor(None, pipe.recv) == "go"
    stored.clear()  # the set-up's steps came before the pages: measured from here
    stop = asyncio.Event()
    timers = asyncio.create_task(manager.run_timers(stop))
    assert await loop.run_in_executor(None, pipe.recv) == "stop"
    stop.set()
    await timers
    pipe.send(stored)
    assert await loop.run_in_executor(None, pipe.recv) == "exit"
    await runner.cleanup()
    await db.close()


# ----------------------------------------------------------------- the pages


class Page:
    """One open page: when each state (hand, move) reached it."""

    def __init__(self, chat: str, url: str, token: str) -> None:
        self.chat, self.url, self.token = chat, url, token
        self.arrivals: list[tuple[tuple[int, int], float]] = []
        self.task: asyncio.Task[None] | None = None

    async def open(self, session: aiohttp.ClientSession) -> None:
        socket = await session.ws_connect(self.url, max_msg_size=0)
        await socket.send_json({"type": "hello", "auth": f"Link {self.token}"})
        self.task = asyncio.create_task(self._read(socket))

    async def _read(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        async for message in socket:
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            seen = STEP.search(message.data, 0, 400)  # read as a page would, not parsed:
            if seen is not None and message.data.startswith('{"type":"state"'):  # the client
                step = (int(seen.group(1)), int(seen.group(2)))  # shares the 2 cores
                self.arrivals.append((step, time.time()))

    def first_at_or_after(self) -> tuple[list[tuple[int, int]], list[float]]:
        """For a bisect: the newest step seen so far at each arrival, and when."""
        keys, times, best = [], [], (-1, -1)
        for key, at in self.arrivals:
            if key > best:
                best = key
                keys.append(best)
                times.append(at)
        return keys, times


async def toggle(
    session: aiohttp.ClientSession,
    base: str,
    token: str,
    every: float,
    offset: float,
    taken: list[int],
    stop: asyncio.Event,
) -> None:
    """The person's page turns 托管 off and on again every ``every`` seconds."""
    headers = {"Authorization": f"Link {token}"}
    await asyncio.sleep(offset)
    while not stop.is_set():
        for args in (["off"], ["on"]):
            async with session.post(
                f"{base}/table/api/act", headers=headers, json={"action": "auto", "args": args}
            ) as answer:
                if answer.status == 200 and not (await answer.json())["said"]:
                    taken[0] += 1
        await asyncio.sleep(every)


# ----------------------------------------------------------------- the run


@contextmanager
def store(processes: int) -> Iterator[str]:
    with ExitStack() as stack:
        if processes == 1:
            folder = stack.enter_context(tempfile.TemporaryDirectory())
            yield str(Path(folder) / "web.sqlite3")
            return
        from tests.pg_server import FAST_FOR_TESTS, running_server

        yield stack.enter_context(running_server(FAST_FOR_TESTS)).database("bench")


async def measure(
    processes: int, pages: int, seconds: float, ai_delay: float, every: float
) -> dict[str, Any]:
    tables = max(1, pages // PAGES_PER_TABLE)
    chats = [(f"bench-{n}", GAMES[n % 2]) for n in range(tables)]
    with store(processes) as address:
        if processes > 1:
            await (await Database.open(address)).close()  # migrated once, before both start
        spawn = multiprocessing.get_context("spawn")
        pipes, workers = [], []
        for index in range(processes):
            mine = [c for n, c in enumerate(chats) if n % processes == index]
            ours, theirs = spawn.Pipe()
            worker = spawn.Process(target=serve, args=(index, address, mine, ai_delay, theirs))
            worker.start()
            pipes.append(ours)
            workers.append(worker)
        loop = asyncio.get_running_loop()
        ports = [await loop.run_in_executor(None, pipe.recv) for pipe in pipes]
        signer = LinkSigner(KEY)
        connector = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(connector=connector) as session:
            clients, togglers, taken = [], [], [0]
            stop = asyncio.Event()
            for n, (chat, _) in enumerate(chats):
                for j in range(PAGES_PER_TABLE):
                    where = ports[(j + n // 2) % processes]  # half on each, the person's too
                    user, seat = (person(chat), 0) if j == 0 else (f"w{j}-{chat}", WATCH)
                    token = signer.sign(user, chat, seat, 10**6)
                    clients.append(Page(chat, f"http://127.0.0.1:{where}/table/ws", token))
                    if j == 0:
                        togglers.append((f"http://127.0.0.1:{where}", token, n))
            for start in range(0, len(clients), 50):
                await asyncio.gather(*(c.open(session) for c in clients[start : start + 50]))
            for pipe in pipes:
                pipe.send("go")
            tasks = [
                asyncio.create_task(
                    toggle(session, base, token, every, every * n / len(togglers), taken, stop)
                )
                for base, token, n in togglers
            ]
            await asyncio.sleep(seconds)
            stop.set()
            await asyncio.gather(*tasks)
            for pipe in pipes:
                pipe.send("stop")
            stored = [
                step for pipe in pipes for step in await loop.run_in_executor(None, pipe.recv)
            ]
            await asyncio.sleep(CATCH_UP)
            for client in clients:
                if client.task is not None:
                    client.task.cancel()
        for pipe in pipes:
            pipe.send("exit")
        for worker in workers:
            await loop.run_in_executor(None, worker.join)
        autos = await stored_autos(address, [chat for chat, _ in chats])
    latencies, missed = latencies_of(stored, clients)
    toggled = autos - tables  # each table's first 托管 on was the set-up's
    ms = sorted(x * 1000 for x in latencies) or [0.0]
    return {"processes": processes, "pages": len(clients), "moves": len(stored),
            "p50_ms": round(statistics.median(ms), 1),
            "p99_ms": round(ms[min(len(ms) - 1, int(len(ms) * 0.99))], 1),
            "max_ms": round(ms[-1], 1), "missed": missed,
            "doubled": max(0, toggled - taken[0]), "lost": max(0, taken[0] - toggled),
            "page_moves": taken[0]}  # fmt: skip


def latencies_of(
    stored: list[tuple[str, int, int, float]], clients: list[Page]
) -> tuple[list[float], int]:
    pages: dict[str, list[tuple[list[tuple[int, int]], list[float]]]] = {}
    for client in clients:
        pages.setdefault(client.chat, []).append(client.first_at_or_after())
    latencies, missed = [], 0
    for chat, hand, moves, at in stored:
        for keys, times in pages.get(chat, []):
            index = bisect.bisect_left(keys, (hand, moves))
            if index == len(keys):
                missed += 1
            else:  # a state read before the step was stored was another step's
                latencies.append(max(0.0, times[index] - at))
    return latencies, missed


async def stored_autos(address: str, chats: list[str]) -> int:
    """托管 moves of the person's seat stored, over every table."""
    db = await Database.open(address)
    try:
        count = 0
        for chat in chats:
            for hand in await db.hands_of(chat):
                count += sum(
                    1 for raw in hand.actions if raw.get("act") == "auto" and raw.get("seat") == 0
                )
        return count
    finally:
        await db.close()


def run(processes: int, pages: int, seconds: float, ai_delay: float, every: float) -> None:
    figures = asyncio.run(measure(processes, pages, seconds, ai_delay, every))
    print(
        f"{figures['moves']} steps stored, {figures['page_moves']} 托管 moves made on "
        f"pages ({figures['lost']} lost), {figures['pages']} pages on {processes} "
        "processes"
    )
    keys = ("processes", "pages", "moves", "p50_ms", "p99_ms", "max_ms", "missed", "doubled")
    print(json.dumps({key: figures[key] for key in keys}))
