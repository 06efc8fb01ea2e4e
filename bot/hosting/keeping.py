"""Keeping tables: every step stored before anything about it is sent, and tables rebuilt
from storage (after a restart, a failed step, or a table taken over from another process).

`TableKeeper` is one of the `bot.hosting.manager.TableManager`'s collaborators; it knows which
stored hand each table is playing and how many of its actions are stored."""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any

from bot.commands.notices import Invitations
from bot.community.record_book import RecordBook
from bot.hosting.open_tables import OpenTables
from bot.hosting.process_identity import Ownership
from bot.i18n import N_
from bot.ops import metrics
from bot.table.effects import Effects
from bot.table.hand_views import table_message
from bot.table.rated_hands import moves_line, rate_hand
from bot.table.snapshot import table_snapshot
from bot.table.state import PLAYING, Table
from bot.views.outgoing import Outgoing
from engine.game import AnyHand
from storage import Database
from storage.base import Transaction
from storage.leases import LeaseLost
from storage.ratings import RatingMove
from storage.rows import ActionRow, LedgerLine, StoredTable, TableRow, TimerRow
from storage.signals import STEPS

log = logging.getLogger(__name__)
Sender = Callable[[Outgoing], Awaitable[None]]
RESTORED = N_("Table restored after a restart.")


class TableKeeper:
    def __init__(
        self,
        db: Database,
        tables: OpenTables,
        send: Sender,
        clock: Callable[[], float],
        seeds: Callable[[int], int] | None,
        ownership: Ownership | None,
        records: RecordBook | None = None,
        invitations: Invitations | None = None,
        committed: Callable[[int], None] | None = None,
    ) -> None:
        self.db = db
        self.tables = tables
        self.send = send
        self.clock = clock
        self.seeds = seeds
        self.ownership = ownership
        """This process among those sharing the database: every step it stores holds the
        step's tables' leases (None: it shares nothing)."""
        self.hand_ids: dict[str, int] = {}
        """The stored id of the hand each table is playing."""
        self.stored_actions: dict[str, int] = {}
        """How many actions of that hand are stored."""
        self.invitations = invitations
        """Who may press the Join button of a /notify message: recalled for a table rebuilt
        here (after a restart, or taken over from another process)."""
        self.records = records
        """Announces achievements in the post that ends a hand, once the hand is stored."""
        self.committed: Callable[[int], None] = committed or (lambda actions: None)
        """Told, after each commit, how many actions this process has stored so far (a crash
        test ends the process there: `adapters.console`'s ``--crash-after-actions``)."""
        self._actions_committed = 0
        self.rated: dict[str, list[RatingMove]] = {}
        """The rating moves of the hand each table just finished, for the post ending it."""
        self.listeners: list[Callable[[Table], None]] = []
        """Told of each table whose step was just committed, still under its chat's lock (a
        closing step's table too, as it leaves memory): the web table pushes every open
        page its fresh view from here (`adapters.web`). A listener must not block, nor
        change the table; one that raises is logged and the others are still told."""

    def forget(self, chat: str) -> None:
        self.hand_ids.pop(chat, None)
        self.stored_actions.pop(chat, None)

    def move(self, old: str, new: str) -> None:
        for mapping in (self.hand_ids, self.stored_actions):
            if old in mapping:
                mapping[new] = mapping.pop(old)

    # ----------------------------------------------------------------- storing

    async def _hold(self, tx: Transaction, chats: list[str]) -> None:
        """Inside a step's transaction: the step's tables are still this process's, or the
        transaction rolls back (`LeaseLost`) and nothing of the step is stored or sent."""
        if self.ownership is not None and chats:
            now = self.clock()
            await tx.hold(self.ownership.owner, chats, now, now + self.ownership.seconds)

    async def store_step(
        self, table: Table, effects: Effects, delivery: tuple[str, str] | None = None
    ) -> None:
        """Store one table's step in a transaction of its own, with the platform update that
        caused it (``(platform, key)``): the step and the update's being taken commit together,
        so a crash between them neither loses the update nor lets its copy through."""
        async with self.db.transaction() as tx:
            await self.store(tx, table, effects)
            if delivery is not None:
                await tx.first_delivery(*delivery, self.clock())
        self.let_go_if_closed([table])
        self._count_committed([(table, effects)])
        await self.announce([(table, effects)])
        self._tell([table])

    def _count_committed(self, steps: list[tuple[Table, Effects]]) -> None:
        actions = 0
        for table, effects in steps:
            metrics.stored(table.chat, table.game, len(effects.actions))
            actions += len(effects.actions)
        if actions:
            self._actions_committed += actions
            self.committed(self._actions_committed)

    def _tell(self, tables: Iterable[Table]) -> None:
        if not self.listeners:
            return
        for table in tables:
            for listener in self.listeners:
                try:
                    listener(table)
                except Exception:  # a page's trouble never fails a stored step
                    log.exception("a listener failed on the step of %s", table.chat)

    def let_go_if_closed(self, tables: Iterable[Table]) -> None:
        """A table whose closing step is stored leaves memory at once (with its lock, once
        its step lets go of it): storage keeps it for `/score` until the retention period
        ends (`bot.hosting.manager.TableManager.forget_closed_tables`)."""
        for table in tables:
            if not table.is_open() and self.tables.get(table.chat) is table:
                self.tables.pop(table.chat)
                self.forget(table.chat)

    async def store(self, tx: Transaction, table: Table, effects: Effects) -> None:
        """Store a step: its actions belong to the hand that was current when it began, which
        may then finish; a new hand dealt in the same step comes after."""
        chat = table.chat
        await self._hold(tx, [chat])
        if effects.actions:
            await tx.append_actions(self._action_rows(chat, effects))
        if effects.hand_finished is not None:
            result, ledger = effects.hand_finished
            lines = [LedgerLine(*line) for line in ledger]
            await tx.finish_hand(self.hand_ids[chat], chat, result, lines)
            if effects.rated_seats is not None:
                self.rated[chat] = await rate_hand(
                    tx, table.game, result, effects.rated_seats, self.hand_ids[chat], self.clock()
                )
        if effects.hand_started is not None:
            hand_id = await tx.start_hand(
                chat, table.match, table.hand_number, effects.hand_started
            )
            self.hand_ids[chat] = hand_id
            self.stored_actions[chat] = 0
        if effects.table_changed or effects.actions:
            row = TableRow(chat, table.game, table.state, table_snapshot(table), self.clock())
            await tx.save_tables([row])
        if effects.told is not None:
            users, at = effects.told
            await tx.mark_told(chat, users, at)
        await self._signal(tx, [table])

    async def _signal(self, tx: Transaction, tables: Sequence[Table]) -> None:
        """Sharing the database, the other processes hear of the steps as they commit: the
        pages connected to them read the table from the store (`bot.hosting.page_questions`)."""
        if self.ownership is not None:
            steps = [
                json.dumps({"table": table.chat, "step": table.turn_count}) for table in tables
            ]
            await tx.tell(STEPS, steps)

    async def store_batch(self, steps: list[tuple[Table, Effects]]) -> None:
        """Store several tables' steps in one transaction, committed on return (the common
        case — actions and timers — in one statement each)."""
        async with self.db.transaction() as tx:
            await self._store_steps(tx, steps)
        self.let_go_if_closed(table for table, _ in steps)
        self._count_committed(steps)
        await self.announce(steps)
        self._tell(table for table, _ in steps)

    async def announce(self, steps: Iterable[tuple[Table, Effects]]) -> None:
        """What the players of a hand just stored achieved joins the post ending it. A
        failure here costs the line, never the step (it comes with their next hand). At a
        rated table the players' new ratings join it too."""
        for table, effects in steps:
            moves = self.rated.pop(table.chat, [])
            if effects.hand_finished is None or effects.settlement is None:
                continue
            lines: list[Callable[[str], str]] = []
            if moves:
                lines.append(functools.partial(_moves_said, moves))
            users = [line[0] for line in effects.hand_finished[1]]
            try:
                if self.records is not None:
                    feats = await self.records.announced(table.chat, users, table.game)
                    lines += [feats] if feats is not None else []
            except Exception:
                log.exception("achievements of a hand in %s could not be announced", table.chat)
            if lines:
                ended = effects.settlement
                said = replace(
                    ended,
                    text="\n".join([ended.text, *(line(table.lang) for line in lines)]),
                    said=_with_lines(ended, lines),
                )
                effects.out = [said if m is ended else m for m in effects.out]
                if table.sent.buttoned is ended:  # its buttons go later: the line stays
                    table.sent.now_with_buttons(said)

    async def store_each(
        self, steps: list[tuple[Table, Effects]], failed: list[str], lost: list[str]
    ) -> list[tuple[Table, Effects]]:
        """Store the steps one by one: returns those stored; the chats of those that failed
        join ``failed``, those of tables another process holds now join ``lost``."""
        stored = []
        for table, effects in steps:
            try:
                await self.store_step(table, effects)
            except LeaseLost as gone:
                lost += gone.chats
            except Exception:
                failed.append(table.chat)
            else:
                stored.append((table, effects))
        return stored

    async def _store_steps(self, tx: Transaction, steps: list[tuple[Table, Effects]]) -> None:
        await self._hold(tx, [table.chat for table, _ in steps])
        rows: list[ActionRow] = []
        signalled: list[Table] = []  # (a step stored by `store` signals itself)
        snapshots: list[TableRow] = []
        timers: list[TimerRow] = []
        for table, effects in steps:
            if (
                effects.hand_finished is not None
                or effects.hand_started is not None
                or effects.told is not None
            ):
                await self.store(tx, table, effects)  # rare: a hand ends or starts
                continue
            rows += self._action_rows(table.chat, effects)
            signalled.append(table)
            if effects.table_changed:
                snapshots.append(
                    TableRow(
                        table.chat, table.game, table.state, table_snapshot(table), self.clock()
                    )
                )
            elif effects.actions:  # only the turn moved on: the timer is all that changed
                timers.append(TimerRow(table.chat, table.deadline, table.turn_count, self.clock()))
        if rows:
            await tx.append_actions(rows)
        if snapshots:
            await tx.save_tables(snapshots)
        if timers:
            await tx.save_timers(timers)
        await self._signal(tx, signalled)

    def _action_rows(self, chat: str, effects: Effects) -> list[ActionRow]:
        seq = self.stored_actions.get(chat, 0)
        self.stored_actions[chat] = seq + len(effects.actions)
        return [
            ActionRow(self.hand_ids[chat], seq + offset, action)
            for offset, action in enumerate(effects.actions)
        ]

    # ----------------------------------------------------------------- rebuilding

    async def reload(self, chat: str) -> Table | None:
        """The table of ``chat`` rebuilt from what storage holds (its last committed step)."""
        self.tables.pop(chat)
        for stored in await self.db.open_tables(chat):
            await self.rebuild(stored, None, announce=False)
        return self.tables.get(chat)

    async def rebuild(
        self, stored: StoredTable, alive_at: float | None, announce: bool, line: str | None = None
    ) -> None:
        """Make the stored table this process's, its running hand replayed from its record.
        ``announce``: its group gets a line (``line``, else that it was restored) and a fresh
        table message, and its timer waits on with the time that was left when it stopped
        (else the timer goes on from now)."""
        table = self.table_from(stored)
        data = stored.settings
        if self.invitations is not None and table.is_open():
            await self.invitations.recall(self.db, table.chat, table.match)
        hands = await self.db.hands_of(stored.chat, table.match, table.hand_number)
        if table.state == PLAYING and hands and hands[-1].result is None:
            current = hands[-1]
            hand, closed = self._replayed(table, current.start, current.actions)
            self.hand_ids[stored.chat] = current.id
            self.stored_actions[stored.chat] = len(current.actions)
            self.tables.put(table)
            # The timer ran until the bot was last known alive (its heartbeat, or the last
            # save, on the table's own clock), then waits on with what was left.
            stopped = max(alive_at or 0.0, float(data.get("saved_at", 0.0)))
            table.resume(hand, stopped if announce else self.clock())
            # The tricks closed before, as shown then: a quick table's narration goes on at
            # the next trick's message, not over the first trick's again.
            for event in closed:
                table.close_a_trick(event)
            table.closings.unshown(len(closed))
            if announce:
                restored = table.group(line or RESTORED)  # said in each reader's language
                for message in (restored, table_message(table)):
                    await self.send(message)
            return
        if hands and hands[-1].result is None and table.state != PLAYING:
            self.hand_ids[stored.chat] = hands[-1].id
        self.tables.put(table)

    def table_from(self, stored: StoredTable) -> Table:
        """The stored table, its running hand not replayed (kept nowhere)."""
        data = stored.settings
        table = Table(
            stored.chat,
            stored.game,
            data["preset"],
            data["host"],
            data["lang"],
            self.clock,
            self.seeds,
        )
        table.restore(stored.state, data)
        return table

    @staticmethod
    def _replayed(
        table: Table, start: dict[str, Any], actions: Sequence[Any]
    ) -> tuple[AnyHand, list[Any]]:
        """The hand replayed from its record, and the tricks or rounds it closed."""
        game = table.front.game
        hand = game.hand_from_record(start)
        closed = []
        for raw in actions:
            events = hand.apply(game.action_from_json(raw))  # a record that cannot be read raises
            closed += [event for event in events if table.front.closes_a_trick(event)]
        return hand, closed


def _moves_said(moves: list[RatingMove], lang: str) -> str:
    return moves_line(lang, moves)


def _with_lines(ended: Outgoing, lines: list[Callable[[str], str]]) -> Callable[[str], str] | None:
    """The post ending a hand, with the ratings and achievements lines, for a reader of
    another language (a quick table's players)."""
    if ended.said is None:
        return None
    written = ended.said
    return lambda lang: "\n".join([written(lang), *(line(lang) for line in lines)])
