"""Issue 50 item 1 inside one test: two managers, each with its web table, on one PostgreSQL
database (as two processes would be). A page on the process that does not hold its table
gets the table's view from the store, hears every step the owner stores (LISTEN/NOTIFY) and
has its moves carried out by the owner; an owner that never answers is waited for until its
lease runs out, then the move is run where the page is — once, however often it is sent."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any

import aiohttp

from adapters.serving import GuardedRunner
from adapters.web.auth import LinkSigner
from adapters.web.server import WebTable
from bot.hosting.manager import TableManager
from bot.hosting.page_questions import PageQuestions
from bot.hosting.table_leases import Ownership
from bot.reading.command import Command, Delivery, parse_command
from storage import Database
from tests.bot.harness import Recorder

KEY = b"a-key-both-processes-sign-with!!"
CHAT = "tg:-100500"
ANN, BOB = "tg:u1", "tg:u2"
LEASE = 3.0


class Process:
    def __init__(self, name: str, db: Database) -> None:
        self.db = db
        self.sent = Recorder()
        self.manager = TableManager(db, self.sent, ownership=Ownership(name, seconds=LEASE))
        self.web = WebTable(self.manager, LinkSigner(KEY))
        self.runner: GuardedRunner | None = None
        self.port = 0

    async def serve(self) -> None:
        self.runner, self.port = await self.web.serve("127.0.0.1", 0)

    async def say(self, user: str, text: str) -> None:
        command = parse_command(text, user, user[-1], CHAT, lang="en")
        assert command is not None
        for message in await self.manager.handle(command):
            await self.manager.send(message)

    async def close(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()
        await self.db.close()


@asynccontextmanager
async def two_processes(postgres_server: Any, serve_a: bool = True) -> AsyncIterator[Any]:
    address = postgres_server.database()
    a = Process("a", await Database.open(address))
    b = Process("b", await Database.open(address))
    if serve_a:
        await a.serve()
    await b.serve()
    try:
        for user, text in (
            (ANN, "/new situan"),
            (BOB, "/join"),
            (ANN, "/addbot"),
            (ANN, "/addbot"),
            (ANN, "/start"),
        ):
            await a.say(user, text)
        assert a.manager.held == {CHAT} and not b.manager.held
        yield a, b
    finally:
        await a.close()
        await b.close()


class PageClient:
    """A page's WebSocket: its frames as they come."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.socket = socket
        self.frames: list[dict[str, Any]] = []

    @classmethod
    async def open(cls, session: aiohttp.ClientSession, port: int, user: str, seat: int) -> Any:
        socket = await session.ws_connect(f"http://127.0.0.1:{port}/table/ws")
        token = LinkSigner(KEY).sign(user, CHAT, seat)
        await socket.send_json({"type": "hello", "auth": f"Link {token}"})
        return cls(socket)

    async def next(
        self,
        kind: str,
        where: Callable[[dict[str, Any]], bool] = lambda f: True,
        seconds: float = 10.0,
    ) -> dict[str, Any]:
        deadline = time.monotonic() + seconds
        while True:
            data = await self.socket.receive_json(timeout=max(0.01, deadline - time.monotonic()))
            self.frames.append(data)
            if data["type"] == kind and where(data):
                return data


def view(process: Process, user: str) -> dict[str, Any]:
    """The owner's view for ``user``, less its ticking countdown."""
    state = PageQuestions.state(process.manager.tables[CHAT], user, None)
    return {**state, "seconds": None}


def same(shown: dict[str, Any], owners: dict[str, Any]) -> bool:
    """Whether a page's state is the owner's view, the same but for the countdown — the
    deal's "Flipped card" line too, which the hand's record keeps (``flipped``)."""
    return {**shown, "seconds": None} == owners


async def test_a_page_on_the_other_process_sees_every_step_and_its_move_is_run_by_the_owner(
    postgres_server,
):
    async with two_processes(postgres_server) as (a, b), aiohttp.ClientSession() as session:
        page = await PageClient.open(session, b.port, BOB, 1)
        first = await page.next("state")
        assert same(first["state"], view(a, BOB)) and first["state"]["you"] == 1
        await a.say(ANN, "/auto on")  # a step the owner stores: the page on B hears of it
        later = await page.next("state", lambda f: f["state"]["seats"][0].get("auto") is True)
        assert same(later["state"], view(a, BOB))

        await page.socket.send_json({"type": "act", "action": "auto", "args": ["on"]})
        moved = await page.next("state", lambda f: f["state"]["seats"][1].get("auto") is True)
        assert a.manager.tables[CHAT].hand.auto[1]  # carried out by A, which holds the table
        assert (b.web.moves.forwarded, a.web.moves.taken) == (1, 1)
        assert not b.manager.held and a.manager.held == {CHAT}
        assert same(moved["state"], view(a, BOB))
        # A refusal comes back to the page from the owner, in the player's language.
        await page.socket.send_json({"type": "act", "action": "auto", "args": ["on"]})
        said = await page.next("said")
        assert said["text"] and a.web.moves.taken == 2
        await page.socket.close()


async def test_an_owner_that_never_answers_is_waited_for_until_its_lease_ends_then_taken_over(
    postgres_server,
):
    """A holds the table but hears no forwarded move (its web table is not served: as good
    as dead). Bob's move on B waits for A's lease to run out, then B takes the table over and
    runs it; the same move delivered again (the owner had stored it after all, say) is
    dropped: one move, one action."""
    async with two_processes(postgres_server, serve_a=False) as (_a, b):
        expires = (await b.db.leases_of([CHAT], time.time()))[CHAT].expires
        command = Command("auto", ("on",), BOB, "Bob", CHAT, lang="en")
        said = await b.web.moves.carry_out(command)
        assert time.time() >= expires
        assert said == [] and b.manager.held == {CHAT}
        assert b.manager.tables[CHAT].hand.auto[1]
        stored = (await b.db.hands_of(CHAT))[0].actions
        assert [raw for raw in stored if raw.get("act") == "auto"] == [
            {"seat": 1, "act": "auto", "on": True}
        ]
        # Its copy, with the key B gave it, again: dropped as delivered.
        delivered = await _web_deliveries(b.db)
        assert len(delivered) == 1
        again = replace(command, delivery=Delivery("web", delivered[0].split("@")[0]))
        assert await b.manager.handle_delivered(again) is None
        assert len((await b.db.hands_of(CHAT))[0].actions) == len(stored)


async def _web_deliveries(db: Database) -> list[str]:
    pool = db._pool  # type: ignore[attr-defined]
    rows = await pool.fetch("SELECT update_id FROM seen_updates WHERE platform = 'web'")
    return [row["update_id"] for row in rows]


async def test_the_listening_connection_lost_is_made_again_and_the_pages_follow_on(
    postgres_server,
):
    async with two_processes(postgres_server) as (a, b), aiohttp.ClientSession() as session:
        page = await PageClient.open(session, b.port, BOB, 1)
        await page.next("state")
        listening = b.db.signals._connection  # type: ignore[union-attr]
        assert listening is not None
        await a.db._pool.execute(  # type: ignore[attr-defined]
            "SELECT pg_terminate_backend($1)", listening.get_server_pid()
        )
        await a.say(ANN, "/auto on")  # heard at once, or made up for once listening again
        later = await page.next("state", lambda f: f["state"]["seats"][0].get("auto") is True)
        assert same(later["state"], view(a, BOB))
        for _ in range(200):
            if b.db.signals._connection not in (None, listening):  # type: ignore[union-attr]
                break
            await asyncio.sleep(0.05)
        await a.say(BOB, "/auto on")  # and the next step is heard on the new connection
        await page.next("state", lambda f: f["state"]["seats"][1].get("auto") is True)
        await page.socket.close()
