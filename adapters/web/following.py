"""The pages of tables another process holds, told of each step that process stores.

The holder of a table pushes its pages their views from memory as each step is stored
(`adapters.web.pages.Pages.step`). A page connected to another process hears of the step
from its signal (`storage.signals.STEPS`, sent as the step commits): its process reads the
table from the store (`bot.hosting.page_questions`) and pushes every page of it here its own view.
Signals for one table that arrive while it is being read are folded into one more read, so
a busy table costs at most one read at a time and the pages always end on its last step.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging

from adapters.web.pages import Pages
from bot.hosting.page_questions import PageQuestions
from storage.signals import MISSED, STEPS, Signals

log = logging.getLogger(__name__)


class StepFollowing:
    """Follows the steps of the tables whose pages are here and that are held elsewhere
    (``signals`` None: one process, nothing to follow)."""

    def __init__(self, pages: Pages, questions: PageQuestions, signals: Signals | None) -> None:
        self.pages = pages
        self.questions = questions
        self.signals = signals
        self.due: set[str] = set()
        """Tables that stepped since they were last read."""
        self.reading: asyncio.Task[None] | None = None

    async def start(self) -> None:
        if self.signals is not None:
            await self.signals.listen(STEPS, self.heard)

    async def stop(self) -> None:
        task, self.reading = self.reading, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def heard(self, payload: str) -> None:
        if payload == MISSED:  # the listening connection was made again: read them all
            self.questions.all_changed()
            for chat in list(self.pages.by_chat):
                self._follow(chat)
            return
        try:
            chat = str(json.loads(payload)["table"])
        except (ValueError, KeyError, TypeError):
            log.warning("a step signal could not be read: %.80r", payload)
            return
        self.questions.changed(chat)
        self._follow(chat)

    def _follow(self, chat: str) -> None:
        if chat not in self.pages.by_chat or self.questions.held(chat):
            return  # no page here, or its holder is this process: pushed from memory
        self.due.add(chat)
        if self.reading is None:
            self.reading = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        """Read every table due, all at once (two queries however many: the steps of a
        timer pass come together), push their pages, and again while more are due."""
        try:
            while self.due:
                chats, self.due = self.due, set()
                try:
                    await self.questions.refresh(chats)
                except Exception:
                    log.exception("%d tables could not be read for their pages", len(chats))
                    continue
                for chat in chats:
                    await self._push(chat)
        finally:
            self.reading = None

    async def _push(self, chat: str) -> None:
        if chat not in self.pages.by_chat or self.questions.held(chat):
            return
        copy = self.questions.copies.get(chat)
        table = copy.table if copy is not None else await self.questions.last_table(chat)
        if table is not None:
            self.pages.step(chat, self.questions.drawer(table))
