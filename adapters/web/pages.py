"""The open pages of each table, and pushing them their view after every stored step.

The manager tells `Pages.step` of each step as soon as it is stored, under the table's lock
(`bot.hosting.manager.TableManager.listen_to_steps`): each open page of that table gets the state
drawn for its own visitor — a seat's page its seat's view, a spectator's the public one —
and only when it changed. A page slow to read gets the newest state, not every one between
(a state waiting to be written is replaced). A page whose link was for a seat its user no
longer holds is told so and closed. The pages of a table another process holds are pushed
the same way, from a copy read from the store when that process's step is signalled
(`adapters.web.following`). A view shared by several pages (a table's spectators) is drawn
and written once a step.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from adapters.web.auth import WATCH, Visitor
from bot.hosting.manager import PageState

log = logging.getLogger(__name__)
PAGES_PER_USER = 8
"""Pages one user may keep open at once: the oldest is closed for a new one."""


def frame(kind: str, **values: Any) -> str:
    return json.dumps({"type": kind, **values}, ensure_ascii=False, separators=(",", ":"))


class Page:
    """One open page: who it is, and the frames waiting to be written to it."""

    def __init__(
        self,
        visitor: Visitor,
        write: Callable[[str], Awaitable[None]],
        close: Callable[[], Awaitable[Any]],
    ) -> None:
        self.visitor = visitor
        self.write = write
        self.close = close
        self.last_state = ""
        self.waiting: list[str] = []
        self.state_at: int | None = None
        """Where in ``waiting`` the state not yet written is (a newer one replaces it)."""
        self.wake = asyncio.Event()
        self.denied = False

    def offer_state(self, state: dict[str, Any], text: str | None = None) -> None:
        """``text``: the state's frame, when written already for another page."""
        text = text or frame("state", state=state)
        if text == self.last_state:
            return
        self.last_state = text
        if self.state_at is not None:
            self.waiting[self.state_at] = text
        else:
            self.state_at = len(self.waiting)
            self.waiting.append(text)
        self.wake.set()

    def offer(self, text: str) -> None:
        self.waiting.append(text)
        self.wake.set()

    def deny(self) -> None:
        """The page's credential no longer holds (its user left the seat): told, closed."""
        self.denied = True
        self.offer(frame("denied", status=401))

    async def run_writer(self) -> None:
        """Write what waits, as it comes, until the page closes."""
        while True:
            await self.wake.wait()
            self.wake.clear()
            texts, self.waiting, self.state_at = self.waiting, [], None
            for text in texts:
                await self.write(text)
            if self.denied:
                await self.close()
                return


class Pages:
    """Every open page, by table."""

    def __init__(self) -> None:
        self.by_chat: dict[str, list[Page]] = {}
        self.pushed = 0
        """States pushed after steps so far (for tests and the bench)."""

    def add(self, page: Page) -> Page | None:
        """Keep ``page``; returns a page of the same user to close, past `PAGES_PER_USER`."""
        pages = self.by_chat.setdefault(page.visitor.chat, [])
        pages.append(page)
        mine = [
            p for ps in self.by_chat.values() for p in ps if p.visitor.user == page.visitor.user
        ]
        return mine[0] if len(mine) > PAGES_PER_USER else None

    def remove(self, page: Page) -> None:
        pages = self.by_chat.get(page.visitor.chat, [])
        with contextlib.suppress(ValueError):
            pages.remove(page)
        if not pages:
            self.by_chat.pop(page.visitor.chat, None)

    def count(self) -> int:
        return sum(len(pages) for pages in self.by_chat.values())

    def step(self, chat: str, state_of: PageState) -> None:
        """A step of the table of ``chat`` is stored: every page of it gets its own view."""
        written: dict[int, str] = {}
        for page in list(self.by_chat.get(chat, ())):
            if page.denied:
                continue
            visitor = page.visitor
            try:
                state = state_of(visitor.user, visitor.lang)
            except Exception:
                log.exception("no page state for %s", chat)
                continue
            if visitor.seat is not None and visitor.seat != WATCH and state["you"] != visitor.seat:
                page.deny()  # a link is for one seat: its user left it
                continue
            text = written.get(id(state))  # a view shared by pages is written once
            if text is None:
                text = written[id(state)] = frame("state", state=state)
            page.offer_state(state, text)
            self.pushed += 1
