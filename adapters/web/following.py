"""The pages of tables another process holds, told of each step that process stores.

The holder of a table pushes its pages their views from memory as each step is stored
(`adapters.web.pages.Pages.step`). A page connected to another process hears of the step
from its signal (`storage.signals.STEPS`, sent as the step commits): its process reads the
table from the store (`bot.page_questions`) and pushes every page of it here its own view.
Signals for one table that arrive while it is being read are folded into one more read, so
a busy table costs at most one read at a time and the pages always end on its last step.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging

from adapters.web.pages import Pages
from bot.page_questions import PageQuestions
from storage.signals import MISSED, STEPS, Signals

log = logging.getLogger(__name__)


class StepFollowing:
    """Follows the steps of the tables whose pages are here and that are held elsewhere
    (``signals`` None: one process, nothing to follow)."""

    def __init__(self, pages: Pages, questions: PageQuestions, signals: Signals | None) -> None:
        self.pages = pages
        self.questions = questions
        self.signals = signals
        self.reading: dict[str, asyncio.Task[None]] = {}
        self.again: set[str] = set()
        """Tables that stepped again while being read."""

    async def start(self) -> None:
        if self.signals is not None:
            await self.signals.listen(STEPS, self.heard)

    async def stop(self) -> None:
        tasks = list(self.reading.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
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
        if chat in self.reading:
            self.again.add(chat)
            return
        self.reading[chat] = asyncio.ensure_future(self._push(chat))

    async def _push(self, chat: str) -> None:
        try:
            while True:
                self.again.discard(chat)
                try:
                    table = await self.questions.last_table(chat)
                except Exception:
                    log.exception("the table of %s could not be read for its pages", chat)
                    table = None
                if table is not None and not self.questions.held(chat):
                    self.pages.step(chat, functools.partial(self.questions.state, table))
                if chat not in self.again:
                    return
        finally:
            del self.reading[chat]
