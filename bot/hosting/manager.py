"""The TableManager: one table per chat, one lock per chat, storage first, then sending.

`handle` returns what a command asks to be sent — the caller (an adapter) delivers it — after
the step is stored; what tables do by themselves on their timers goes to ``send``. The
manager routes, locks and contains faults; it is made of collaborators, each given what it
needs: the tables and their locks (`bot.hosting.open_tables`), the keeper that stores and rebuilds
them (`bot.hosting.keeping`), the leases shared with other processes (`bot.hosting.table_leases`),
the timers (`bot.hosting.timers`) and the fault containment (`bot.hosting.faults`). Adapters ask it
the narrow questions below (`is_host`, `is_seated`, `tables_in`…) and never touch a table."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from bot.commands import steps as table_steps
from bot.commands.chat import NO_TABLE, games_text
from bot.commands.notices import Invitations
from bot.commands.private_chat import name_the_table, needs_routing, route
from bot.commands.registry import spec_of
from bot.community.record_book import RecordBook
from bot.games import RECORD_READERS
from bot.hosting.faults import Faults
from bot.hosting.hinting import Hints
from bot.hosting.keeping import Sender, TableKeeper
from bot.hosting.open_tables import OpenTables
from bot.hosting.page_questions import PageQuestions
from bot.hosting.process_identity import Ownership
from bot.hosting.quick_reach import EVERYONE, Reach
from bot.hosting.quick_room import QuickRoom
from bot.hosting.table_leases import ELSEWHERE, Leases
from bot.hosting.table_questions import TableQuestions
from bot.hosting.timers import Timers
from bot.i18n import DEFAULT_LANGUAGE, normalize_language, t
from bot.ops.defaults import DAY, RETENTION_DAYS, TIMER_STEP
from bot.ops.logs import table_context
from bot.page import seat_view as web_seat_view
from bot.reading.command import Command
from bot.table.effects import Effects
from bot.table.hand_views import table_message
from bot.table.state import PLAYING, Table
from bot.views.outgoing import Kind, Outgoing
from storage import Database
from storage.leases import Lease, LeaseLost

log = logging.getLogger(__name__)
FLOOD_BURST = 30
FLOOD_RATE = 5.0
"""Per user: a burst of 30 commands (picking cards by button is many presses), then 5 a
second; beyond that commands are dropped."""
PageState = Callable[[str | None, str | None], dict[str, Any]]
"""A table's web view for a reader: (user, the language their platform gave) → the JSON of
`bot.page.seat_view.page_state` (a user not seated there: the public view)."""
StepListener = Callable[[str, PageState], None]
"""Told after each stored step of a table: its chat, and how to draw its pages now."""
FORGET_EVERY = 3600.0
"""The heartbeat forgets closed tables past their retention at the first beat, then hourly."""


class TableManager(TableQuestions):
    """Routes commands to tables (creating them with /new), runs their timers, and stores
    every accepted action before anything about it is sent."""

    def __init__(
        self,
        db: Database,
        send: Sender,
        *,
        clock: Callable[[], float] = time.time,
        seeds: Callable[[int], int] | None = None,
        language: str = DEFAULT_LANGUAGE,
        flood_burst: int = FLOOD_BURST,
        flood_rate: float = FLOOD_RATE,
        ownership: Ownership | None = None,
        retention: float = RETENTION_DAYS * DAY,
        ai_workers: int = 0,
        committed: Callable[[int], None] | None = None,
        reach: Reach = EVERYONE,
    ) -> None:
        self.db = db
        self.send = send
        self.clock = clock
        self.seeds = seeds
        self.language = language
        self.ownership = ownership
        self.open = OpenTables()
        self.records = RecordBook(db, RECORD_READERS, clock)
        """Each group's records and achievements, from its stored hands."""
        self.invitations = Invitations()
        """Who was told of which table by /notify (their Join button works privately)."""
        self.keeper = TableKeeper(
            db,
            self.open,
            self._send,
            clock,
            seeds,
            ownership,
            self.records,
            self.invitations,
            committed,
        )
        self.leases = Leases(db, self.open, self.keeper, clock, ownership, reach)
        self.faults = Faults(self.keeper)
        self.timers = Timers(
            self.open,
            self.keeper,
            self.leases,
            self._send,
            self.faults.contain,
            self._heartbeat,
            clock,
            ai_workers,
        )
        self.quick = QuickRoom(
            db, self.open, self.keeper, self.leases, self._send, clock, seeds, language, reach=reach
        )
        """The quick queues' tables, told to each player privately (`match` runs them)."""
        self.hints = Hints(
            self.open, self.timers.thinking.workers, self.keeper, self.faults.contain
        )
        """Hints thought out on the AI workers with the table's lock let go (`/hint`)."""
        self.user_langs: dict[str, str] = {}
        """Languages players chose with /lang in a private chat (also kept in storage)."""
        self.flood_burst = float(flood_burst)
        self.flood_rate = flood_rate
        self.allowance: dict[str, tuple[float, float]] = {}
        """Each user's flood allowance: (tokens, when counted)."""
        self.retention = retention
        """Seconds the store keeps a closed table."""
        self._forgot_at = float("-inf")
        self.duplicates = 0
        """Commands dropped as their update was delivered before (for the logs and tests)."""

    async def _send(self, message: Outgoing) -> None:
        for each in self.quick.fan_out(message):  # a quick table's: to each player
            await self.send(each)  # looked up at each call: an adapter sets ``send`` later

    # ----------------------------------------------------------------- the web table

    def page_state(self, chat: str, user: str | None, lang: str | None) -> dict[str, Any] | None:
        """What the web page of ``user`` (None or not seated: a spectator) shows of the table
        of ``chat`` now, in their language (`bot.page.seat_view`); None: no table there."""
        table = self.open.get(chat)
        if table is None:
            return None
        return web_seat_view.page_state(table, user, web_seat_view.reader_lang(table, user, lang))

    def page_verdict(
        self, chat: str, user: str, move: str, cards: list[str], lang: str | None
    ) -> tuple[bool, str]:
        """Whether ``user`` may ``move`` (play, bury) ``cards`` now, and if not, why — the
        engine's judgement, changing nothing."""
        table = self.open.get(chat)
        if table is None:
            said = lang or self.language
            return False, t(said, NO_TABLE, games=games_text(said))
        return web_seat_view.verdict(
            table, user, move, cards, web_seat_view.reader_lang(table, user, lang)
        )

    def listen_to_steps(self, listener: StepListener) -> None:
        """``listener`` is told of every stored step (commands and timers alike), under the
        table's lock, with a way to draw each page of it as it is then."""

        def told(table: Table) -> None:
            listener(table.chat, PageQuestions.drawer(table))  # each view drawn once a step

        self.keeper.listeners.append(told)

    # ----------------------------------------------------------------- what chats need

    def open_table(self, command: Command, game: str, preset: str, lang: str) -> Table:
        table = Table(command.chat, game, preset, command.user, lang, self.clock, self.seeds)
        table.learn_title(command)
        self.open.put(table)
        self.keeper.forget(command.chat)
        return table

    def tables_seating(self, user: str) -> list[Table]:
        return self.open.seating(user)

    async def closed_table(self, chat: str) -> Table | None:
        """The table last closed in ``chat``, read from storage (memory keeps no closed table:
        storage has it anyway, until the retention period, and across restarts)."""
        stored = await self.db.closed_table(chat)
        return None if stored is None else self.keeper.table_from(stored)

    # ----------------------------------------------------------------- commands

    def _throttled(self, user: str) -> bool:
        """A token bucket per user: a user who floods commands is ignored for a moment."""
        now = self.clock()
        tokens, since = self.allowance.get(user, (self.flood_burst, now))
        tokens = min(self.flood_burst, tokens + (now - since) * self.flood_rate)
        if tokens < 1.0:
            self.allowance[user] = (tokens, now)
            return True
        self.allowance[user] = (tokens - 1.0, now)
        return False

    async def handle(self, command: Command) -> list[Outgoing]:
        """Run a command and store what it changed; returns the messages to send."""
        return await self.handle_delivered(command) or []

    async def handle_delivered(self, command: Command) -> list[Outgoing] | None:
        """`handle`, telling a copy apart: None when the command's update was delivered before
        (`Command.delivery`) and is dropped — an adapter that must answer each update once (a
        Discord interaction takes one response) answers nothing then."""
        if self._throttled(command.user):
            return []
        chosen = self.user_langs.get(command.user)
        if chosen is None and command.private:
            chosen = await self.db.player_lang(command.user)
            if chosen:
                self.user_langs[command.user] = chosen
        if chosen:  # the player's own choice wins over the platform's language
            command = replace(command, lang=chosen)
        if not needs_routing(self.open.by_chat, command):
            return await self._handle_at(command)
        lang = normalize_language(command.lang) or self.language
        elsewhere = await self.leases.where_to_play(command) if self.ownership else None
        if elsewhere is not None:
            return [Outgoing(Kind.REPLY, command.chat, t(lang, elsewhere), user=command.user)]
        routed = route(self.open.seating(command.user), command, lang)
        if routed.answer is not None:
            return routed.answer.out
        out: list[Outgoing] = []
        dropped = 0
        for each in routed.commands:
            table = self.open.get(each.chat)  # taken first: a step that closes it lets go
            answers = await self._handle_at(each)
            if answers is None:
                dropped += 1
                continue
            table = self.open.get(each.chat) or table
            if routed.several and table is not None:
                answers = name_the_table(answers, table, each.user, lang)
            out += answers
        return None if dropped and dropped == len(routed.commands) else out

    async def _handle_at(self, command: Command) -> list[Outgoing] | None:
        """Run a command at the table of its chat, store the step, return what to send (None:
        the command's update was delivered before, and is dropped)."""
        async with self.open.lock(command.chat), table_context(command.chat):
            try:
                if self._at_a_table(command) and await self.leases.take(command.chat) is not None:
                    return await self._elsewhere(command)
                delivery = self._delivery_key(command)
                if delivery is not None and await self.db.delivered(*delivery, self.clock()):
                    self.duplicates += 1
                    log.info("update %s was delivered before: dropped", delivery[1])
                    return None
                effects = await self._handle_locked(command)
                table = self.open.get(command.chat)
                if table is not None:
                    await self.keeper.store_step(table, effects, delivery)
                    effects.out = self.quick.fan_out_all(effects.out)
                elif delivery is not None:  # no table stepped (/stats, /help): taken alone
                    await self.db.first_delivery(*delivery, self.clock())
            except LeaseLost as lost:
                self.leases.lose(lost.chats)
                return await self._elsewhere(command)
            except Exception:
                return await self.faults.contain(command.chat, command)
        out = effects.out
        if effects.hint_asked is not None:  # thought out with the lock let go
            out = out + self.quick.fan_out_all(await self.hints.give(effects.hint_asked))
        return await self.quick.hand_back(command, out, self.send)

    @staticmethod
    def _delivery_key(command: Command) -> tuple[str, str] | None:
        """``(platform, update key at this chat)`` of a command a platform delivered; checked
        under the chat's lock and stored with the step, so two copies handled at once (or
        after a restart, or at another process that took the table over) step once."""
        if command.delivery is None:
            return None
        return command.delivery.platform, command.delivery.at(command.chat)

    def _at_a_table(self, command: Command) -> bool:
        """Whether a command acts at a table (a group's, or one a private command was routed
        to) — what needs the table's lease when processes share the database."""
        return self.ownership is not None and (not command.private or command.chat in self.open)

    async def _elsewhere(self, command: Command) -> list[Outgoing]:
        """The table is another process's. A command from its own chat at a process that takes
        no updates handed on asks for it (it is handed over within a third of a lease: a
        Discord process gets its shards' channels' tables back after a failover); with
        Telegram's handing on this is only a race, and the next update finds the owner. A
        private command is told where to play."""
        lang = normalize_language(command.lang) or self.language
        if command.private:
            return [Outgoing(Kind.REPLY, command.chat, t(lang, ELSEWHERE), user=command.user)]
        ownership = self.ownership
        assert ownership is not None
        if not ownership.address:  # it takes no updates handed on: it must own what it gets
            async with self.db.transaction() as tx:
                await tx.ask_for(command.chat, ownership.owner, ownership.address)
        text = t(lang, "This table moved to another server a moment ago. Please try again.")
        return [Outgoing(Kind.REPLY, command.chat, text, user=command.user)]

    async def _handle_locked(self, command: Command) -> Effects:
        table = self.open.get(command.chat)
        lang = normalize_language(command.lang) or (table.lang if table else self.language)
        spec = spec_of(command.name)
        if spec is not None and spec.chat is not None:
            effects = await spec.chat(self, command, table, lang)
            if effects is not None:
                return effects
        if table is None or not table.is_open():
            text = t(lang, NO_TABLE, games=games_text(lang))
            return Effects(out=[Outgoing(Kind.REPLY, command.chat, text, user=command.user)])
        return table_steps.handle(table, command)

    # ----------------------------------------------------------------- chats that change

    async def move_chat(self, old: str, new: str) -> list[Outgoing]:
        """The chat got a new id (a Telegram group became a supergroup): its table, hands and
        ledger follow, and the group is told once. Returns what to send."""
        async with self.open.lock(old), self.open.lock(new):
            table = self.open.pop(old)
            async with self.db.transaction() as tx:
                await tx.move_table(old, new)
            if table is None:
                return []
            table.move_to(new)
            self.open.put(table)
            self.keeper.move(old, new)
            self.records.forget(old)
            out = [table.group("This group moved; the table moved with it.")]  # at ``new`` now
            if table.hand is not None and table.state == PLAYING:
                out.append(table_message(table))
            return out

    async def close_chat(self, chat: str) -> None:
        """The bot can no longer post in ``chat`` (removed from the group): its table is
        closed, its seats freed, and nothing is sent there."""
        async with self.open.lock(chat):
            table = self.open.pop(chat)
            async with self.db.transaction() as tx:
                await tx.delete_table(chat)
            if table is not None:
                table.abandon()

    # ----------------------------------------------------------------- time and restarts

    async def tick(self) -> None:
        await self.timers.tick()

    async def run_timers(self, stop: asyncio.Event, step: float = TIMER_STEP) -> None:
        """Run the tables' timers until ``stop``; nothing a table does can end this loop."""
        await self.timers.run_timers(stop, step)

    async def _heartbeat(self) -> None:
        await self.quick.match()
        self.prune()
        await self.forget_closed_tables()
        await self.db.set_meta("alive_at", repr(self.clock()))

    async def forget_closed_tables(self) -> int:
        """The store forgets the tables closed longer ago than the retention period (their
        row and leases; their hands and ledger stay): at the first heartbeat, then hourly.
        Returns how many went."""
        now = self.clock()
        if now - self._forgot_at < FORGET_EVERY:
            return 0
        self._forgot_at = now
        forgotten = await self.db.forget_closed_tables(now - self.retention, now)
        if forgotten:
            log.info("forgot %d tables closed over %g days ago", forgotten, self.retention / DAY)
        return forgotten

    def prune(self) -> None:
        """Forget what no longer matters, so memory does not grow with everyone who ever
        typed: full allowances, and the locks of chats with no table."""
        now = self.clock()
        refill = self.flood_burst / self.flood_rate
        self.allowance = {
            user: (tokens, since)
            for user, (tokens, since) in self.allowance.items()
            if now - since < refill
        }
        self.open.drop_idle_locks()

    async def restore(self) -> None:
        """Rebuild every open table from storage; running hands get a 'table restored' line
        and a fresh table message, and their timers resume with the time that was left. A
        table that cannot be rebuilt is logged and left closed; the others come back."""
        alive = await self.db.meta("alive_at")
        # Sharing the database, the heartbeat is any process's: each table's own last save
        # is when its timer stopped.
        alive_at = float(alive) if alive and self.ownership is None else None
        for stored in await self.db.open_tables():
            try:
                async with self.open.lock(stored.chat), table_context(stored.chat):
                    if stored.chat in self.open:
                        continue  # a command came first and took the table on already
                    if not await self.leases.claim_at_start(stored.chat):
                        continue  # another process runs it
                    await self.keeper.rebuild(stored, alive_at, announce=True)
            except Exception:
                log.exception("table %s could not be restored", stored.chat)
                self.open.pop(stored.chat)

    async def keep_leases(self) -> None:
        await self.leases.keep_leases()

    async def release_leases(self) -> None:
        await self.leases.release_leases()

    async def forward_address(self, chat: str, user: str, private: bool) -> str | None:
        return await self.leases.forward_address(chat, user, private)

    async def players_leases_elsewhere(self, user: str) -> list[Lease]:
        return await self.leases.players_leases_elsewhere(user)
