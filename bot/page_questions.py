"""What a web page asks of a table, answered by whichever process the page reached.

A table is one process's at a time (`bot.leasing`); a page may connect to any of them. The
process holding the table answers from memory, as before; another reads the table from the
store — its last committed step — and keeps that copy (its running hand replayed once, then
moved on by the actions stored since) until a signal says the table stepped again
(`storage.signals.STEPS`, told to `changed`). A copy is only ever read: nothing here steps a
table or stores anything. On SQLite (one process) only held tables are answered, as before.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot import web_view
from bot.chat_commands import NO_TABLE, games_text
from bot.i18n import t
from bot.open_tables import OpenTables
from bot.table import BETWEEN, PLAYING, Table
from engine.game import AnyHand
from storage import Database
from storage.base import StoredTable

log = logging.getLogger(__name__)
COPIES_AT_MOST = 20_000
"""Copies of other processes' tables kept at once (each is forgotten when its last page
closes; this bounds what hellos that opened nothing leave behind)."""


@dataclass
class Copy:
    """A table another process holds, as the store had it, and how far its hand is read."""

    table: Table
    hand_id: int | None = None
    hand: AnyHand | None = None
    applied: int = 0


class PageQuestions:
    """The web table's questions: which table a page shows, a reader's view of it, whether
    chosen cards may be played. ``table_from`` builds a table from its stored row (without
    its hand: `bot.keeping.TableKeeper.table_from`)."""

    def __init__(
        self, tables: OpenTables, db: Database, table_from: Callable[[StoredTable], Table],
        language: str, clock: Callable[[], float] = time.time,
    ) -> None:  # fmt: skip
        self.tables = tables
        self.db = db
        self.table_from = table_from
        self.language = language
        self.clock = clock
        self.copies: dict[str, Copy] = {}
        self.stale: set[str] = set()
        """Copies a signal said are behind the store: read again when next asked."""
        self._reading: dict[str, asyncio.Lock] = {}
        self.reads = 0
        """Tables read from the store so far (for tests and the bench)."""

    @property
    def shared(self) -> bool:
        """Whether other processes share the store (and so may hold a page's table)."""
        return self.db.signals is not None

    def held(self, chat: str) -> bool:
        return chat in self.tables

    async def table(self, chat: str) -> Table | None:
        """The open table of ``chat`` as a page sees it now (None: none is open)."""
        held = self.tables.get(chat)
        if held is not None or not self.shared:
            return held
        copy = self.copies.get(chat)
        if copy is not None and chat not in self.stale:
            return copy.table
        return await self._read(chat)

    async def last_table(self, chat: str) -> Table | None:
        """`table`, or the table as its closing step left it: what a page is shown last."""
        table = await self.table(chat)
        if table is not None or not self.shared:
            return table
        closed = await self.db.closed_table(chat)
        return None if closed is None else self.table_from(closed)

    def changed(self, chat: str) -> None:
        """A step of ``chat``'s table was stored (by any process)."""
        if chat in self.copies:
            self.stale.add(chat)

    def all_changed(self) -> None:
        """Signals may have been missed: every copy is read again."""
        self.stale.update(self.copies)

    def forget(self, chat: str) -> None:
        """No page of ``chat`` is open here any more."""
        self.copies.pop(chat, None)
        self.stale.discard(chat)
        lock = self._reading.get(chat)
        if lock is not None and not lock.locked():
            del self._reading[chat]

    async def _read(self, chat: str) -> Table | None:
        lock = self._reading.setdefault(chat, asyncio.Lock())
        async with lock:  # pages asking at once share one read
            copy = self.copies.get(chat)
            if copy is not None and chat not in self.stale:
                return copy.table
            self.stale.discard(chat)  # first: a step stored while reading marks it again
            self.reads += 1
            stored = await self.db.open_tables(chat)
            if not stored:
                self.copies.pop(chat, None)
                return None
            fresh = Copy(self.table_from(stored[0]))
            await self._read_hand(fresh, copy)
            if len(self.copies) >= COPIES_AT_MOST:
                self.copies.clear()
            self.copies[chat] = fresh
            return fresh.table

    async def _read_hand(self, fresh: Copy, before: Copy | None) -> None:
        """The copy's hand: the one being played (or just played, between two hands), moved
        on from the copy before by the actions stored since, else replayed from its start."""
        table = fresh.table
        if table.state not in (PLAYING, BETWEEN) or table.hand_number == 0:
            return
        game = table.front.game
        if (before is not None and before.hand is not None and before.hand_id is not None
                and (before.table.match, before.table.hand_number)
                == (table.match, table.hand_number)):  # fmt: skip
            hand, hand_id, done = before.hand, before.hand_id, before.applied
            actions = await self.db.actions_after(hand_id, done)
        else:
            hands = await self.db.hands_of(table.chat, table.match, table.hand_number)
            if not hands:
                return
            hand_id, actions, done = hands[-1].id, hands[-1].actions, 0
            hand = game.hand_from_record(hands[-1].start)
        for raw in actions:
            hand.apply(game.action_from_json(raw))
        fresh.hand_id, fresh.hand, fresh.applied = hand_id, hand, done + len(actions)
        table.resume(hand, self.clock())

    # ----------------------------------------------------------------- a page's questions

    @staticmethod
    def seat_at(table: Table, user: str) -> int | None:
        """The seat ``user`` holds at ``table`` (None: none, or the table is closed)."""
        return table.seat_of(user) if table.is_open() else None

    @staticmethod
    def state(table: Table, user: str | None, lang: str | None) -> dict[str, Any]:
        """What ``user``'s page (None or not seated: a spectator's) shows of ``table`` now, in
        their language (`bot.web_view.page_state`)."""
        return web_view.page_state(table, user, web_view.reader_lang(table, user, lang))

    def verdict(
        self, table: Table | None, user: str, move: str, cards: list[str], lang: str | None
    ) -> tuple[bool, str]:
        """Whether ``user`` may ``move`` (play, bury) ``cards`` now, and if not, why — the
        engine's judgement, changing nothing."""
        if table is None:
            said = lang or self.language
            return False, t(said, NO_TABLE, games=games_text(said))
        return web_view.verdict(table, user, move, cards, web_view.reader_lang(table, user, lang))
