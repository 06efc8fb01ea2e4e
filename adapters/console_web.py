"""The console's own web table (--web): served on 127.0.0.1 for the console's person, its link, and
waiting until its last page closes."""

from __future__ import annotations

import asyncio

from adapters.console_keyboard import Keyboard
from adapters.console_options import WEB_PORT
from adapters.console_printer import CHAT, HUMAN
from adapters.serving import GuardedRunner
from adapters.web.links import seat_link
from adapters.web.server import WebTable
from bot.hosting.manager import TableManager

PAGE_LOOK_SECONDS = 0.2
"""How often the console looks whether its web table's last page has closed, once the match
is over (the web server keeps its pages; nothing tells when one goes)."""


PAGE_CLOSE_SECONDS = 1.0
"""How long the console waits for its web pages to close when it ends."""


WEB_LINK_SECONDS = 7 * 86_400.0
"""The console's link is good while the program runs (its key dies with it): a week."""


class LocalWeb:
    """The console's web table: on 127.0.0.1 only, one link for the terminal's player (a
    spectator's, when no person plays)."""

    def __init__(self, table: WebTable, runner: GuardedRunner, port: int) -> None:
        self.table = table
        self.runner = runner
        self.port = port

    @classmethod
    async def start(cls, manager: TableManager, port: int | None) -> LocalWeb:
        """`OSError` when a port asked for is taken (the default one falls back to any)."""
        table = WebTable(manager)
        try:
            runner, taken = await table.serve("127.0.0.1", WEB_PORT if port is None else port)
        except OSError:
            if port is not None:
                raise
            runner, taken = await table.serve("127.0.0.1", 0)
        return cls(table, runner, taken)

    def link(self) -> str:
        seat = self.table.manager.seat_at(CHAT, HUMAN)
        base = f"http://127.0.0.1:{self.port}"
        return seat_link(base, self.table.signer, HUMAN, CHAT, seat, WEB_LINK_SECONDS)

    def pages_open(self) -> int:
        return self.table.pages.count()

    async def until_closed_or(self, keyboard: Keyboard, stop: asyncio.Event) -> None:
        """Until a line is typed (Enter), the last page closes, or Ctrl-C / SIGTERM."""
        typed = asyncio.ensure_future(keyboard.line())
        stopping = asyncio.ensure_future(stop.wait())
        try:
            while self.pages_open() and not typed.done() and not stopping.done():
                await asyncio.wait({typed, stopping}, timeout=PAGE_LOOK_SECONDS)
        finally:
            typed.cancel()
            stopping.cancel()

    async def stop(self) -> None:
        """The pages are closed first (a second at most): an open page's socket would hold
        the server's shutdown until its heartbeat gave up, 30 s after Enter."""
        closing = [
            asyncio.ensure_future(page.close())
            for pages in self.table.pages.by_chat.values()
            for page in pages
        ]
        if closing:
            await asyncio.wait(closing, timeout=PAGE_CLOSE_SECONDS)
        await self.runner.cleanup()
