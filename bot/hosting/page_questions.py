"""What a web page asks of a table, answered by whichever process the page reached.

A table is one process's at a time (`bot.hosting.table_leases`); a page may connect to any of them.
The process holding the table answers from memory, as before; another reads the table from the store
— its last committed step — and keeps that copy (its running hand replayed once, then moved on by
the actions stored since) until a signal says the table stepped again (`storage.signals.STEPS`, told
to `changed`). A copy is only ever read: nothing here steps a table or stores anything. On SQLite
(one process) only held tables are answered, as before."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from bot.commands.chat import NO_TABLE, games_text
from bot.hosting.open_tables import OpenTables
from bot.i18n import t
from bot.page import seat_view as web_view
from bot.page.rules_panel import rules_panel
from bot.table.state import BETWEEN, PLAYING, Table
from engine.game import AnyHand
from storage import Database
from storage.rows import StoredTable

log = logging.getLogger(__name__)
COPIES_AT_MOST = 20_000
"""Copies of other processes' tables kept at once (each is forgotten when its last page
closes; this bounds what hellos that opened nothing leave behind)."""


@dataclass
class Replay:
    """A hand read from the store, moved on by its actions as they are stored. Copies of a
    table share it while its hand lasts; an action is applied once however many reads
    fetched it (applying has no wait in it: reads running at once cannot interleave)."""

    hand_id: int
    hand: AnyHand
    applied: int = 0

    def move_on(self, game: Any, actions: list[Any], first: int) -> None:
        """Apply ``actions`` (the stored ones numbered from ``first``) not yet applied."""
        for seq, raw in enumerate(actions, first):
            if seq == self.applied:
                self.hand.apply(game.action_from_json(raw))
                self.applied += 1


@dataclass
class Copy:
    """A table another process holds, as the store had it, and its hand."""

    table: Table
    replay: Replay | None = None


class PageQuestions:
    """The web table's questions: which table a page shows, a reader's view of it, whether
    chosen cards may be played. ``table_from`` builds a table from its stored row (without
    its hand: `bot.hosting.keeping.TableKeeper.table_from`)."""

    def __init__(
        self,
        tables: OpenTables,
        db: Database,
        table_from: Callable[[StoredTable], Table],
        language: str,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.tables = tables
        self.db = db
        self.table_from = table_from
        self.language = language
        self.clock = clock
        self.copies: dict[str, Copy] = {}
        self.stale: set[str] = set()
        """Copies a signal said are behind the store: read again when next asked."""
        self._tickets: dict[str, int] = {}
        """Per table, the number of the last read begun and of the last one kept: a read
        that ends after a later one began keeps nothing (the later one read newer rows)."""
        self._kept: dict[str, int] = {}
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
        if copy is None or chat in self.stale:
            await self.refresh([chat])
            copy = self.copies.get(chat)
        return None if copy is None else copy.table

    async def last_table(self, chat: str) -> Table | None:
        """`table`, or the table as its closing step left it: what a page is shown last."""
        table = await self.table(chat)
        if table is not None or not self.shared:
            return table
        closed = await self.db.closed_table(chat)
        return None if closed is None else self.table_from(closed)

    async def ended(self, chat: str) -> Table | None:
        """The table last closed in ``chat`` with the hand its match ended with, as a page
        opened after the end draws it (None: none is stored) — asked once `table` found no
        open table there. Nothing of it changes any more, and nothing can be played there."""
        stored = await self.db.closed_table(chat) if chat else None
        if stored is None:
            return None
        table = self.table_from(stored)
        try:
            replay = await self._replayed(table)
        except Exception:  # a record this version cannot read: the score alone is shown
            log.exception("the last hand of %s could not be replayed", chat)
        else:
            if replay is not None:
                table.recall_last_hand(replay.hand)  # kept only if played to its end
        return table

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
        self._tickets.pop(chat, None)
        self._kept.pop(chat, None)

    async def refresh(self, chats: Collection[str]) -> None:
        """Read the copies of ``chats`` again: their rows in one query, the actions their
        hands stored since in another (a hand just dealt is read whole)."""
        tickets = {}
        for chat in chats:  # first: a step stored while reading marks it again
            self.stale.discard(chat)
            tickets[chat] = self._tickets[chat] = self._tickets.get(chat, 0) + 1
        self.reads += len(tickets)
        rows = {stored.chat: stored for stored in await self.db.open_tables_in(list(tickets))}
        fresh: dict[str, Copy | None] = {}
        moving: list[tuple[Copy, Replay]] = []
        for chat in tickets:
            stored = rows.get(chat)
            if stored is None:
                fresh[chat] = None
                continue
            copy = fresh[chat] = Copy(self.table_from(stored))
            table, before = copy.table, self.copies.get(chat)
            if table.state not in (PLAYING, BETWEEN) or table.hand_number == 0:
                continue
            if (
                before is not None
                and before.replay is not None
                and (before.table.match, before.table.hand_number)
                == (table.match, table.hand_number)
            ):
                moving.append((copy, before.replay))
            else:
                copy.replay = await self._replayed(table)
        if moving:
            since = {replay.hand_id: replay.applied for _, replay in moving}
            actions = await self.db.actions_after_each(sorted(since.items()))
            for moved, replay in moving:
                game = moved.table.front.game
                replay.move_on(game, actions[replay.hand_id], since[replay.hand_id])
                moved.replay = replay
        for chat, kept in fresh.items():
            if self._kept.get(chat, 0) > tickets[chat]:
                continue  # a later read was kept already
            self._kept[chat] = tickets[chat]
            if kept is None:
                self.copies.pop(chat, None)
                continue
            if kept.replay is not None:
                kept.table.resume(kept.replay.hand, self.clock())
            if len(self.copies) >= COPIES_AT_MOST:
                self.copies.clear()
            self.copies[chat] = kept

    async def _replayed(self, table: Table) -> Replay | None:
        """The table's hand, replayed from its start and every action stored."""
        hands = await self.db.hands_of(table.chat, table.match, table.hand_number)
        if not hands:
            return None
        game = table.front.game
        replay = Replay(hands[-1].id, game.hand_from_record(hands[-1].start))
        replay.move_on(game, hands[-1].actions, 0)
        return replay

    # ----------------------------------------------------------------- a page's questions

    @staticmethod
    def seat_at(table: Table, user: str) -> int | None:
        """The seat ``user`` holds at ``table`` (None: none, or the table is closed)."""
        return table.seat_of(user) if table.is_open() else None

    @staticmethod
    def drawer(table: Table) -> Callable[[str | None, str | None], dict[str, Any]]:
        """`state` of ``table`` for each reader, each view drawn once: its spectators (and a
        seat's pages) in one language share one state (a step's pages are drawn at once)."""
        drawn: dict[tuple[int | None, str], dict[str, Any]] = {}

        def state(user: str | None, lang: str | None) -> dict[str, Any]:
            seat = table.seat_of(user) if user is not None else None
            key = (seat, web_view.reader_lang(table, user, lang))
            if key not in drawn:
                drawn[key] = web_view.page_state(table, user, key[1])
            return drawn[key]

        return state

    @staticmethod
    def state(table: Table, user: str | None, lang: str | None) -> dict[str, Any]:
        """What ``user``'s page (None or not seated: a spectator's) shows of ``table`` now, in
        their language (`bot.page.seat_view.page_state`)."""
        return web_view.page_state(table, user, web_view.reader_lang(table, user, lang))

    @staticmethod
    def rules(table: Table, user: str | None, lang: str | None) -> dict[str, Any]:
        """The rules panel of ``table``'s game in the language of ``user``'s page
        (`bot.page.rules_panel`): the same for every seat, in each reader's words."""
        return rules_panel(table.front, web_view.reader_lang(table, user, lang))

    def verdict(
        self, table: Table | None, user: str, move: str, cards: list[str], lang: str | None
    ) -> tuple[bool, str]:
        """Whether ``user`` may ``move`` (play, bury) ``cards`` now, and if not, why — the
        engine's judgement, changing nothing."""
        if table is None:
            said = lang or self.language
            return False, t(said, NO_TABLE, games=games_text(said))
        return web_view.verdict(table, user, move, cards, web_view.reader_lang(table, user, lang))
