"""Two bot processes (``python -m bot``) on one PostgreSQL database, each with its Telegram
webhook (the fake Bot API) and its web table; and a page's way in that, like the proxy of a
deployment, reaches one process while it lives and the other once it is gone."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import signal
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import aiohttp

from engine import game_of
from tests.pg_server import free_port
from tests.web.world import card_texts, public_cards

ROOT = Path(__file__).resolve().parents[2]
SECRET = "a-link-secret-both-processes-share"
HOOK_SECRET = "a-webhook-secret-for-two"
LEASE_SECONDS = 3.0
TIMER_STEP = 0.02
"""The processes' ``BOT_TIMER_STEP``: an AI player or 托管 acts when its pause ends, not at the
next 0.2 s pass — the hands after the kill are played out by the timers alone, and at 0.2 s an
action they took up to two minutes on a loaded machine."""


class BotProcess:
    """One ``python -m bot`` with its webhook, its web table and its health port."""

    def __init__(self, name: str, api: str, db: str, logs: Path) -> None:
        self.name = name
        self.hook, self.web, self.health = free_port(), free_port(), free_port()
        self.env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("BOT_", "TELEGRAM_", "DISCORD_", "WEB_"))
        }
        self.env.update(
            TELEGRAM_BOT_TOKEN="123:TEST",
            TELEGRAM_API_BASE_URL=api,
            TELEGRAM_WEBHOOK_URL="https://cards.example/telegram",
            TELEGRAM_WEBHOOK_LISTEN="127.0.0.1",
            TELEGRAM_WEBHOOK_PORT=str(self.hook),
            TELEGRAM_WEBHOOK_SECRET=HOOK_SECRET,
            BOT_DB=db,
            BOT_PROCESS_ID=name,
            BOT_PEER_URL=f"http://127.0.0.1:{self.hook}",
            BOT_LEASE_SECONDS=str(LEASE_SECONDS),
            BOT_TIMER_STEP=str(TIMER_STEP),
            BOT_LANG="en",
            BOT_AI_WORKERS="0",
            BOT_HEALTH_PORT=str(self.health),
            BOT_HEALTH_LISTEN="127.0.0.1",
            WEB_PUBLIC_URL=f"http://127.0.0.1:{self.web}",
            WEB_LISTEN="127.0.0.1",
            WEB_PORT=str(self.web),
            WEB_LINK_SECRET=SECRET,
            PYTHONPATH=str(ROOT),
        )
        self.log_path = logs / f"{name}.log"
        self.process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        with open(self.log_path, "wb") as log:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot",
                env=self.env,
                cwd=ROOT,
                stdout=log,
                stderr=log,
            )
        async with aiohttp.ClientSession() as session:
            for _ in range(1200):
                with contextlib.suppress(aiohttp.ClientError):
                    async with (
                        session.get(f"http://127.0.0.1:{self.health}/readyz") as ready,
                        session.get(f"http://127.0.0.1:{self.web}/table") as page,
                    ):
                        if ready.status == 200 and page.status == 200:
                            return
                assert self.process.returncode is None, self.log_path.read_text()[-3000:]
                await asyncio.sleep(0.05)
        raise AssertionError(f"{self.name} never became ready")

    def kill(self) -> None:
        """kill -9: no lease given back, no page told."""
        if self.process is not None and self.process.returncode is None:
            self.process.send_signal(signal.SIGKILL)

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.process.wait(), 20)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()


class Doorway:
    """A port that passes each connection to the first of ``ports`` that takes it: a page
    reaches its process while it lives, the next one once it is gone (as a proxy in front of
    several processes does, without sticky sessions)."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = ports
        self.server: asyncio.Server | None = None
        self.port = 0
        self.pipes: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._pass, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def _pass(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        for port in self.ports:
            try:
                inner_reader, inner_writer = await asyncio.open_connection("127.0.0.1", port)
            except OSError:
                continue
            both = [
                asyncio.ensure_future(_pipe(reader, inner_writer)),
                asyncio.ensure_future(_pipe(inner_reader, writer)),
            ]
            self.pipes.update(both)
            await asyncio.wait(both, return_when=asyncio.FIRST_COMPLETED)
            for task in both:
                task.cancel()
                self.pipes.discard(task)
            inner_writer.close()
            break
        writer.close()

    async def close(self) -> None:
        for task in list(self.pipes):
            task.cancel()
        if self.server is not None:
            self.server.close()


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(OSError, asyncio.CancelledError):
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()


class Telegram:
    """What Telegram posts to a process's webhook: numbered updates."""

    def __init__(self) -> None:
        self.ids = itertools.count(1)

    async def post(self, process: BotProcess, update: dict[str, Any]) -> None:
        update = {**update, "update_id": next(self.ids)}
        headers = {"X-Telegram-Bot-Api-Secret-Token": HOOK_SECRET}
        url = f"http://127.0.0.1:{process.hook}/telegram"
        async with (
            aiohttp.ClientSession() as session,
            session.post(url, json=update, headers=headers) as answer,
        ):
            assert answer.status == 200


def seen_views(start: dict[str, Any], actions: list[Any], seat: int) -> list[Any]:
    """After each stored action of a hand (and before the first): what ``seat`` holds and
    every card made public so far — what that seat's page may show."""
    game = game_of(start["game"])
    hand = game.hand_from_record(start)
    views = []
    for raw in [None, *actions]:
        if raw is not None:
            hand.apply(game.action_from_json(raw))
        own = Counter(str(card) for card in hand.view(seat).hand)
        views.append((own, public_cards(hand)))
    return views


def unseen_cards(state: dict[str, Any], views: list[Any]) -> Counter[str]:
    """The cards of a page's state that its seat may not know at any step where it held
    what the state shows it holding (empty: a state the engine's view allows)."""
    shown = Counter(card_texts(state))
    held = Counter(card_texts(state.get("board", {}).get("hand", [])))
    best: Counter[str] | None = None
    for own, public in views:
        if own != held:
            continue
        extra = shown - (own + public)
        if not extra:
            return extra
        best = extra if best is None or sum(extra.values()) < sum(best.values()) else best
    return best if best is not None else shown
