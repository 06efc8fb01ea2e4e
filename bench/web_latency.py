"""The web table's push latency: from an accepted action to every open page's update.

Run: ``python bench/web_latency.py [--actions 400] [--pages 4] [--game situan|erqiwang|both]``;
with ``--processes 1|2`` (``--pages`` over many tables, on one process or two sharing
PostgreSQL) see `bench.web_cluster`.

One TableManager on a real SQLite file serves its web table on 127.0.0.1 (the bot's own
aiohttp server, `adapters.web.server.WebTable`). A table of one person (on 托管) and three AI
seats plays by itself, one stored step at a time (the bench moves the tables' clock to each
deadline). ``--pages`` real WebSocket clients are open on it — the person's seat and
spectators — each proving itself with a signed link as a browser page does. For each
accepted action the clock starts when the step is stored (the web table is told of it in the
same place) and stops when a page has read a state frame showing that move: the figure is the
time from an accepted action to the other pages' update, over the network stack of this one
machine. The clients share the server's event loop (a pessimistic setting: they compete with
it). Prints the median, p99 and max per game.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from adapters.web.auth import LinkSigner
from adapters.web.server import WebTable
from bot.hosting.manager import TableManager
from bot.reading.command import parse_command
from bot.views.outgoing import Outgoing
from storage import Database

CHAT = "bench-group"
PERSON = "ann"


class Clock:
    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


async def quiet(message: Outgoing) -> None:
    """The chat's posts go nowhere: only the pages are measured."""


class Page:
    """One open page: a WebSocket client that notes when each move's state reached it."""

    def __init__(self, session: aiohttp.ClientSession, url: str, token: str) -> None:
        self.session, self.url, self.token = session, url, token
        self.seen: dict[tuple[int, int], float] = {}
        """(hand number, move) → when a state showing it first reached this page."""
        self.task: asyncio.Task[None] | None = None

    async def open(self) -> None:
        socket = await self.session.ws_connect(self.url)
        await socket.send_json({"type": "hello", "auth": f"Link {self.token}"})
        self.task = asyncio.create_task(self._read(socket))

    async def _read(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        async for message in socket:
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            data: dict[str, Any] = json.loads(message.data)
            state = data.get("state") if data.get("type") == "state" else None
            if isinstance(state, dict) and isinstance(state.get("moves"), int):
                self.seen.setdefault((state["number"], state["moves"]), time.perf_counter())


async def play(game: str, actions: int, pages: int) -> list[float]:
    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(str(Path(folder) / "web.sqlite3"))
        clock = Clock()
        manager = TableManager(db, quiet, clock=clock, seeds=lambda n: 4000 + n)
        stored: dict[tuple[int, int], float] = {}
        """(hand number, move) → when the step that made it was stored (a move's number
        starts again with each hand, and both with each match: the bench plays one)."""

        def step_stored(chat: str, state_of: Any) -> None:
            table = manager.tables.get(chat)
            if table is not None:
                stored.setdefault((table.hand_number, table.turn_count), time.perf_counter())

        manager.listen_to_steps(step_stored)  # told first: before the pages' states are drawn
        signer = LinkSigner(clock=clock, match_of=manager.match_at)
        web = WebTable(manager, signer, clock=clock)
        runner, port = await web.serve("127.0.0.1", 0)
        for text in (f"/new {game}", "/addbot", "/addbot", "/addbot", "/start", "/auto on"):
            command = parse_command(text, PERSON, "Ann", CHAT, lang="en")
            assert command is not None
            await manager.handle(command)
        url = f"http://127.0.0.1:{port}/table/ws"
        latencies: list[float] = []
        async with aiohttp.ClientSession() as session:
            clients = [Page(session, url, signer.sign(PERSON, CHAT, 0, 10**6))]
            clients += [
                Page(session, url, signer.sign(f"watcher{n}", CHAT, -1, 10**6))
                for n in range(pages - 1)
            ]
            for client in clients:
                await client.open()
            while len(latencies) < actions * len(clients):
                table = manager.tables.get(CHAT)
                if table is None:  # the match is over: enough of it
                    break
                moves = (table.hand_number, table.turn_count)
                if table.deadline is not None:
                    clock.now = max(clock.now, table.deadline)
                await manager.tick()
                await manager.thinking.settle()
                table = manager.tables.get(CHAT)
                if table is None or (table.hand_number, table.turn_count) == moves:
                    continue
                now = (table.hand_number, table.turn_count)
                for _ in range(2000):  # until every page has it (2 s at most)
                    if all(now in c.seen for c in clients):
                        break
                    await asyncio.sleep(0.001)
                at = stored.get(now)
                if at is not None:
                    latencies += [c.seen[now] - at for c in clients if now in c.seen]
            for client in clients:
                if client.task is not None:
                    client.task.cancel()
        await runner.cleanup()
        await db.close()
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=400)
    parser.add_argument("--pages", type=int, default=4)
    parser.add_argument("--game", choices=("situan", "erqiwang", "both"), default="both")
    parser.add_argument(
        "--processes",
        type=int,
        choices=(1, 2),
        default=None,
        help="tables over one process or two (bench/web_cluster.py)",
    )
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--ai-delay", type=float, default=1.0)
    parser.add_argument("--toggle-every", type=float, default=10.0)
    args = parser.parse_args()
    if args.processes is not None:
        from bench.web_cluster import run

        run(args.processes, args.pages, args.seconds, args.ai_delay, args.toggle_every)
        return
    games = ("situan", "erqiwang") if args.game == "both" else (args.game,)
    for game in games:
        latencies = asyncio.run(play(game, args.actions, args.pages))
        ms = sorted(x * 1000 for x in latencies)
        p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
        median = statistics.median(ms)
        print(
            f"{game}: {len(ms)} page updates ({args.actions} actions × {args.pages} pages): "
            f"median {median:.1f} ms, p99 {p99:.1f} ms, max {ms[-1]:.1f} ms"
        )


if __name__ == "__main__":
    main()
