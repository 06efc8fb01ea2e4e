"""The web table's door under the audit's attacks, each against the real server on 127.0.0.1
(issue 51): slow clients and unhelloed WebSockets lock no one out, nothing a client sends
makes an ERROR line, nested JSON is a 400 everywhere, replays do not stall the loop, a
flooding page is closed with 1008, and a good credential learns nothing of other tables.

Attackers connect from 127.0.0.1, the real visitor from 127.0.0.2 (Linux routes all of
127/8 to the loopback): the per-address cap is what keeps the visitor's room.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import statistics
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from adapters.web.links import table_param
from storage import Database
from tests.web.world import World, init_data

ATTACKER, VISITOR = "127.0.0.1", "127.0.0.2"
NESTED = "[" * 100_000 + "]" * 100_000
"""200 KB of nesting: under the body limit, far past Python's recursion limit."""


@contextlib.asynccontextmanager
async def world_at(tmp_path: Path, **web_options: Any) -> AsyncIterator[World]:
    db = await Database.open(str(tmp_path / "web.sqlite3"))
    world = await World.open(db, "situan", "en", telegram=False, **web_options)
    try:
        yield world
    finally:
        await world.close()
        await db.close()


@contextlib.asynccontextmanager
async def health_of(world: World) -> AsyncIterator[int]:
    """``/healthz`` and ``/readyz`` on a listener of their own (as `bot.__main__` runs it)."""
    from adapters.health import Health, health_app
    from adapters.serving import RefusalLog, ServerLimits, listen_with

    health = Health(world.manager, world.manager.db)
    health.ready = True
    runner = await listen_with(
        health_app(health),
        "127.0.0.1",
        0,
        ServerLimits(),
        RefusalLog(logging.getLogger("test.health"), 60),
    )
    try:
        yield runner.port
    finally:
        await runner.cleanup()


def visitor_session(source: str = VISITOR, **options: Any) -> aiohttp.ClientSession:
    connector = aiohttp.TCPConnector(local_addr=(source, 0), force_close=True)
    return aiohttp.ClientSession(connector=connector, **options)


def link_of(world: World, seat: int | None) -> str:
    return "Link " + world.link(seat).split("#")[1]


async def slow_bodies(port: int, count: int, requests: list[bytes]) -> list[asyncio.StreamWriter]:
    """``count`` connections from the attacker's address, each sending a request's headers
    and the start of its body, never the rest."""
    writers = []
    for number in range(count):
        with contextlib.suppress(OSError):
            _, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(ATTACKER, 0))
            writer.write(requests[number % len(requests)])
            writers.append(writer)
    return writers


def slow_post(path: str, authorization: str = "") -> bytes:
    auth = f"Authorization: {authorization}\r\n" if authorization else ""
    return (
        f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n{auth}"
        "Content-Length: 1000\r\n\r\n{"
    ).encode()


async def timed_get(session: aiohttp.ClientSession, url: str) -> tuple[int, float]:
    started = time.perf_counter()
    async with session.get(url) as answer:
        await answer.read()
        return answer.status, time.perf_counter() - started


def p99(samples: list[float]) -> float:
    ranked = sorted(samples)
    return ranked[min(len(ranked) - 1, int(len(ranked) * 0.99))]


def problems(records: list[logging.LogRecord]) -> list[str]:
    """Lines no attack may cause: an ERROR, or a traceback at any level above DEBUG."""
    return [
        f"{r.name}: {r.getMessage()[:120]}"
        for r in records
        if r.levelno >= logging.ERROR or (r.exc_info and r.levelno > logging.DEBUG)
    ]


# ----------------------------------------------------------------- 1, 2: no lockout, no ERROR


async def test_150_slow_body_clients_leave_the_page_and_healthz_answering(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
):
    """The audit's first attack: 150 POSTs that send their headers and never the body
    (here to the two endpoints that read a body: the replay, and the state with a good
    link). A visitor's page still loads and works, ``/healthz`` answers every time, and the
    log has no ERROR and at most one refusal line."""
    caplog.set_level(logging.DEBUG)
    async with world_at(tmp_path) as world, health_of(world) as health_port:
        link = link_of(world, 0)
        writers = await slow_bodies(
            world.port, 150, [slow_post("/replay/api"), slow_post("/table/api/state", link)]
        )
        try:
            await asyncio.sleep(0.2)  # the server has them all (a hold-up, not a sync)
            healthz = f"http://127.0.0.1:{health_port}/healthz"
            async with visitor_session(timeout=aiohttp.ClientTimeout(total=10)) as session:
                status, _ = await timed_get(session, world.base + "/table")
                assert status == 200
                async with session.post(
                    world.base + "/table/api/state", json={}, headers={"Authorization": link}
                ) as answer:
                    assert answer.status == 200
                    assert (await answer.json())["state"]["you"] == 0
                waits = []
                for _ in range(50):
                    status, took = await timed_get(session, healthz)
                    assert status == 200
                    waits.append(took)
            print(
                f"/healthz under 150 slow bodies: p50 {statistics.median(waits) * 1000:.1f} "
                f"ms, p99 {p99(waits) * 1000:.1f} ms"
            )
            # Every one answered within the session's 10 s: a lockout fails. The issue's
            # 200 ms p99 is a speed load stretches: `python bench/web_door.py --only slow`.
            assert world.runner.door.per_address[ATTACKER] <= 16
        finally:
            for writer in writers:
                writer.close()
    assert problems(caplog.records) == []
    refusals = [r for r in caplog.records if r.getMessage().startswith("refused")]
    assert len(refusals) <= 1, [r.getMessage() for r in refusals]


async def test_unhelloed_websockets_hold_no_room_a_page_needs(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
):
    """500 WebSockets that never say hello (the audit's second lockout), against a server
    counting only the total (as behind a proxy: every client at one address) so that the
    total cap is what is tested: a page that says hello still gets its state, each time."""
    from adapters.serving import ServerLimits

    caplog.set_level(logging.DEBUG)
    limits = ServerLimits(max_connections=40, per_address=None)
    async with world_at(tmp_path, limits=limits) as world:
        url = world.base.replace("http", "ws") + "/table/ws"
        attacking = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0), timeout=aiohttp.ClientTimeout(total=10)
        )
        async with attacking as attacker, visitor_session() as visitor:

            async def silent() -> Any:
                return await attacker.ws_connect(url, timeout=aiohttp.ClientWSTimeout(ws_close=1))

            sockets = await asyncio.gather(*(silent() for _ in range(500)), return_exceptions=True)
            try:
                for _ in range(3):
                    async with visitor.ws_connect(url) as page:
                        await page.send_json({"type": "hello", "auth": link_of(world, 0)})
                        first = await asyncio.wait_for(page.receive_json(), timeout=10)
                        assert first["type"] == "state" and first["state"]["you"] == 0
                assert world.runner.door.most_connections <= 40
            finally:
                for socket in sockets:
                    if isinstance(socket, aiohttp.ClientWebSocketResponse):
                        await socket.close()
    assert problems(caplog.records) == []


async def test_a_websocket_gone_before_its_hello_is_no_error_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
):
    """Issue 52 item 5: a WebSocket closed before its hello (politely, or its connection
    dropped) logs no ERROR and no traceback — at most a DEBUG line."""
    caplog.set_level(logging.DEBUG)
    async with world_at(tmp_path) as world:
        url = world.base.replace("http", "ws") + "/table/ws"
        async with aiohttp.ClientSession() as session:
            for _ in range(20):
                socket = await session.ws_connect(url)
                await socket.close()
        for _ in range(20):  # the connection dropped under the open socket
            reader, writer = await asyncio.open_connection("127.0.0.1", world.port)
            writer.write(
                b"GET /table/ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
            )
            await reader.readuntil(b"\r\n\r\n")
            writer.transport.abort()
        await asyncio.sleep(0.3)  # the server's handlers see them go (a hold-up, not a sync)
    assert problems(caplog.records) == []


# ----------------------------------------------------------------- 3: nested JSON


async def test_nested_json_is_a_400_on_every_endpoint_and_no_body_is_read_without_a_credential(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
):
    caplog.set_level(logging.DEBUG)
    async with world_at(tmp_path) as world:
        link = link_of(world, 0)
        async with aiohttp.ClientSession() as session:
            for path in ("/table/api/state", "/table/api/check", "/table/api/act"):
                async with session.post(
                    world.base + path, data=NESTED, headers={"Authorization": link}
                ) as answer:
                    assert answer.status == 400, path
                async with session.post(world.base + path, data=NESTED) as answer:
                    assert answer.status == 401, path  # the credential first: body unread
            async with session.post(world.base + "/replay/api", data=NESTED) as answer:
                assert answer.status == 400
                assert await answer.json() == {"error": "not JSON"}
            url = world.base.replace("http", "ws") + "/table/ws"
            async with session.ws_connect(url) as socket:  # a nested hello: denied, closed
                await socket.send_str("[" * 8000 + "]" * 8000)
                frame = await asyncio.wait_for(socket.receive_json(), timeout=10)
                assert frame["type"] == "denied"
                closing = await asyncio.wait_for(socket.receive(), timeout=10)
                assert closing.type == aiohttp.WSMsgType.CLOSE and closing.data == 4401
            async with session.ws_connect(url) as socket:  # after the hello: closed cleanly
                await socket.send_json({"type": "hello", "auth": link})
                assert (await asyncio.wait_for(socket.receive_json(), timeout=10))["type"]
                await socket.send_str("[" * 8000 + "]" * 8000)
                closing = await asyncio.wait_for(socket.receive(), timeout=10)
                assert closing.type == aiohttp.WSMsgType.CLOSE and closing.data == 1000
    assert problems(caplog.records) == []


async def test_the_webhook_answers_nested_json_with_400(tmp_path: Path):
    from adapters.serving import ServerLimits
    from tests.telegram.test_webhook import SECRET, webhook_bot

    async with webhook_bot(tmp_path, ServerLimits()) as (_, webhook):
        url = f"http://127.0.0.1:{webhook.port}/telegram"
        async with (
            aiohttp.ClientSession() as session,
            session.post(url, data=NESTED, headers=SECRET) as answer,
        ):
            assert answer.status == 400


async def test_the_webhooks_connections_refused_past_its_cap_make_no_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
):
    """The audit's webhook probe: the cap's worth of posts sending their bodies slowly (busy,
    not idle), then more connections, each refused — closed at once — and half-open ones
    closed at the header timeout. None makes an ERROR line or a traceback (it was "Task
    exception was never retrieved", an AssertionError in aiohttp's RequestHandler.start)."""
    import gc

    from adapters.serving import ServerLimits
    from tests.telegram.test_webhook import closed_by_server, webhook_bot

    caplog.set_level(logging.DEBUG)
    limits = ServerLimits(header_timeout=1.0, max_connections=20, body_timeout=30)
    head = (
        b"POST /telegram HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n"
        b"X-Telegram-Bot-Api-Secret-Token: s3cret-token\r\n\r\n{"
    )
    async with webhook_bot(tmp_path, limits) as (_, webhook):
        busy, refused = [], []
        try:
            for _ in range(20):
                _, writer = await asyncio.open_connection("127.0.0.1", webhook.port)
                writer.write(head)
                busy.append(writer)
            await asyncio.sleep(0.2)  # the server reads their heads (a hold-up, not a sync)
            for _ in range(50):
                reader, writer = await asyncio.open_connection("127.0.0.1", webhook.port)
                writer.write(b"POST /telegram HT")
                refused.append((reader, writer))
            waits = [closed_by_server(reader) for reader, _ in refused]
            await asyncio.wait_for(asyncio.gather(*waits), timeout=30)
        finally:
            for writer in busy + [writer for _, writer in refused]:
                writer.close()
        await asyncio.sleep(0.1)
    gc.collect()  # a task whose exception no one read says so when it is collected
    assert problems(caplog.records) == []


def test_json_deeper_than_32_levels_is_refused_and_32_taken():
    from adapters.serving import BadJson, json_depth, parse_json

    assert parse_json("[" * 32 + "]" * 32) is not None
    assert parse_json('{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}') is not None
    assert json_depth(b'{"a": [{"b": "]]]}"}]}') == 3
    with pytest.raises(BadJson):
        parse_json("[" * 33 + "]" * 33)
    with pytest.raises(BadJson):
        parse_json(NESTED)
    with pytest.raises(BadJson):
        parse_json("{not json")


# ----------------------------------------------------------------- 4: replays off the loop


class LoopWatch:
    """How often the event loop's thread ran more than ``bound`` seconds of CPU between two
    wakes of a probe: a callback that blocks the loop (CPU on the loop's own thread), told
    apart from a machine too busy to run us (wall time without CPU), so that a loaded
    machine does not make it fail."""

    def __init__(self, bound: float = 0.020, every: float = 0.005) -> None:
        self.bound, self.every = bound, every
        self.blocked = 0
        self.worst = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _probe(self) -> None:
        while True:
            before = time.thread_time()
            await asyncio.sleep(self.every)
            spent = time.thread_time() - before
            self.worst = max(self.worst, spent)
            if spent > self.bound:
                self.blocked += 1

    def __enter__(self) -> LoopWatch:
        assert threading.current_thread() is threading.main_thread()
        self._task = asyncio.get_running_loop().create_task(self._probe())
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()


async def record_of_a_hand(world: World) -> bytes:
    await world.drive_to_the_end()
    hands = [h for h in await world.manager.db.hands_of(world.chat) if h.result is not None]
    record = dict(hands[-1].start)
    record["actions"] = hands[-1].actions
    return json.dumps(record).encode()


async def round_trips(world: World, count: int) -> list[float]:
    """A page's state fetched ``count`` times over HTTP, each round trip's seconds."""
    link = link_of(world, 1)
    took = []
    async with visitor_session("127.0.0.9") as session:
        for _ in range(count):
            started = time.perf_counter()
            async with session.post(
                world.base + "/table/api/state", json={}, headers={"Authorization": link}
            ) as answer:
                assert answer.status == 200
                await answer.read()
            took.append(time.perf_counter() - started)
            await asyncio.sleep(0.01)
    return took


async def test_four_replay_floods_do_not_block_another_tables_round_trips(tmp_path: Path):
    """The audit's fourth attack: four clients posting a hand record as fast as they are
    answered. The replays are answered (off the loop), and the loop is never blocked by
    one: counted as CPU on the loop's thread, which load on the machine does not fake."""
    async with world_at(tmp_path) as world:
        record = await record_of_a_hand(world)
        await world.say(world.users[0], "/ready")
        with LoopWatch() as quiet:
            baseline = await round_trips(world, 40)
        stop = asyncio.Event()
        answered: list[int] = []

        async def flood(source: str) -> None:
            async with visitor_session(source) as session:
                while not stop.is_set():
                    async with session.post(
                        world.base + "/replay/api?lang=en", data=record
                    ) as answer:
                        body = await answer.read()
                        answered.append(answer.status)
                        if answer.status == 200:  # (not parsed here: this loop is the server's)
                            assert body.startswith(b'{"game":') and len(body) > 100_000
                        else:
                            await asyncio.sleep(0.05)

        floods = [asyncio.create_task(flood(f"127.0.0.{n}")) for n in range(2, 6)]
        try:
            while answered.count(200) < 4:  # the worker has started and replays
                await asyncio.sleep(0.05)
            cpu_before = time.thread_time()
            replays_before = answered.count(200)
            with LoopWatch() as flooded:
                during = await round_trips(world, 40)
                while answered.count(200) - replays_before < 4:  # a slow machine: more of both
                    during += await round_trips(world, 10)
            replays = answered.count(200) - replays_before
            cpu = time.thread_time() - cpu_before
        finally:
            stop.set()
            await asyncio.gather(*floods, return_exceptions=True)
    print(
        f"round trip p50/p99 {statistics.median(baseline) * 1000:.1f}/"
        f"{p99(baseline) * 1000:.1f} ms alone, {statistics.median(during) * 1000:.1f}/"
        f"{p99(during) * 1000:.1f} ms under four floods ({replays} replays); loop blocked "
        f"{quiet.blocked} times alone, {flooded.blocked} under the floods (worst "
        f"{flooded.worst * 1000:.1f} ms of CPU); {cpu / max(replays, 1) * 1000:.1f} ms of "
        f"the loop's CPU a replay"
    )
    assert replays >= 4  # the floods were served while measured
    assert flooded.blocked <= quiet.blocked + 2  # a GC pass may take 20 ms; a replay did
    assert cpu / replays < 0.1  # the loop's share of a replay: bytes handed on, no replay


async def test_one_replay_at_a_time_per_client(tmp_path: Path):
    async with world_at(tmp_path) as world:
        record = await record_of_a_hand(world)
        async with visitor_session() as session:

            async def replay() -> int:
                async with session.post(world.base + "/replay/api", data=record) as answer:
                    return answer.status

            statuses = await asyncio.gather(*(replay() for _ in range(3)))
        assert sorted(statuses) == [200, 429, 429]


# ----------------------------------------------------------------- 9: flooding, names


async def test_a_flooding_page_is_closed_with_1008(tmp_path: Path):
    async with world_at(tmp_path) as world:
        url = world.base.replace("http", "ws") + "/table/ws"
        async with aiohttp.ClientSession() as session, session.ws_connect(url) as page:
            await page.send_json({"type": "hello", "auth": link_of(world, 0)})
            assert (await asyncio.wait_for(page.receive_json(), timeout=10))["type"] == "state"
            started = time.monotonic()
            check = json.dumps({"type": "check", "action": "play", "cards": ["S2"]})
            with contextlib.suppress(ConnectionError):
                for _ in range(5000):
                    await page.send_str(check)
            while True:
                message = await asyncio.wait_for(page.receive(), timeout=10)
                if message.type != aiohttp.WSMsgType.TEXT:
                    break
            closed_in = time.monotonic() - started
        assert message.type == aiohttp.WSMsgType.CLOSE and message.data == 1008
        print(f"a page flooding 5,000 checks closed with 1008 in {closed_in * 1000:.0f} ms")
        # Closed while the page waited at most 10 s for each message; the 1 s is a
        # speed load stretches: `python bench/web_door.py --only flood`.


async def test_a_name_is_cut_to_64_characters_at_the_door(tmp_path: Path):
    from adapters.web.auth import telegram_visitor
    from tests.web.world import TOKEN

    long = "N" * 100_000  # (an initData is refused unread past 8,192 characters)
    signed = init_data(77, first_name=long[:4000], start_param="eA")
    assert telegram_visitor(signed, TOKEN, None).name == "N" * 64
    async with world_at(tmp_path) as world:
        await world.say(world.users[0], "/ready")
        from bot.reading.command import parse_command

        command = parse_command("/join", "tg:u9", long, "tg:-1009")
        assert command is not None and command.user_name == "N" * 64


# ----------------------------------------------------------------- 10: one answer, links


async def test_no_table_and_not_for_you_are_one_answer_and_a_link_ends_with_its_match(
    tmp_path: Path,
):
    async with world_at(tmp_path) as world:
        link = link_of(world, 0)
        stranger = f"tma {init_data(504)}"
        answers = []
        async with aiohttp.ClientSession() as session:
            for table in (table_param(world.chat), table_param("tg:-100999")):
                async with session.post(
                    world.base + "/table/api/state",
                    json={"table": table},
                    headers={"Authorization": stranger},
                ) as answer:
                    answers.append((answer.status, await answer.text()))
            assert answers[0] == answers[1] and answers[0][0] == 404
            # The match ends and a new one starts at the same chat: the old link opens nothing.
            async with session.post(
                world.base + "/table/api/state", json={}, headers={"Authorization": link}
            ) as answer:
                assert answer.status == 200
            match = world.table.match
            for user in world.users:  # both people vote the match to its end
                await world.say(user, "/stop")
            assert not world.manager.has_table(world.chat)
            world.clock.now += 1
            await world.say(world.users[0], "/new situan")
            assert world.manager.has_table(world.chat) and world.table.match != match
            async with session.post(
                world.base + "/table/api/state", json={}, headers={"Authorization": link}
            ) as answer:
                assert (answer.status, await answer.text()) == answers[0]
            fresh = link_of(world, None)
            async with session.post(
                world.base + "/table/api/state", json={}, headers={"Authorization": fresh}
            ) as answer:
                assert answer.status == 200


async def test_http_checks_are_rate_limited_like_the_websockets(tmp_path: Path):
    async with world_at(tmp_path) as world:
        link = link_of(world, 0)
        body = {"action": "play", "cards": ["S2"]}
        statuses = []
        async with aiohttp.ClientSession() as session:
            for _ in range(80):
                async with session.post(
                    world.base + "/table/api/check", json=body, headers={"Authorization": link}
                ) as answer:
                    statuses.append(answer.status)
        # a burst of 40 (plus what 10 a second adds back meanwhile), then 429
        assert statuses[:40] == [200] * 40 and statuses.count(429) >= 20
