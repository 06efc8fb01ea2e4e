"""The TableManager: one table per chat, one lock per chat, storage first, then sending.

`handle` returns what a command asks to be sent — the caller (an adapter) delivers it — after
the step is stored; what tables do by themselves on their timers goes to ``send``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from asyncio import FIRST_COMPLETED
from collections.abc import Awaitable, Callable
from dataclasses import replace

from bot.commands import Command
from bot.effects import Effects
from bot.games import FRONTS, presets
from bot.i18n import DEFAULT_LANGUAGE, LANGUAGES, N_, normalize_language, t
from bot.lobby import lobby_buttons
from bot.logs import table_context
from bot.outgoing import Outgoing
from bot.playing import apply_action, slow_decision
from bot.private import name_the_table, needs_routing, route
from bot.snapshot import restore_table, table_snapshot
from bot.table import CLOSED, PLAYING, Table
from bot.thinking import Decision, Thinking
from engine.actions import Action
from engine.errors import RecordError
from storage import Database
from storage.base import ActionRow, LedgerLine, StoredTable, TableRow, TimerRow, Transaction

log = logging.getLogger(__name__)
Sender = Callable[[Outgoing], Awaitable[None]]
SAFE_AFTER = 1
"""After this many failed steps a table plays every seat by 托管 (the engine's own choice)."""
PAUSE_AFTER = 3
"""…and after this many it pauses, until the host says /resume."""
CLOSE_AFTER = 5
"""A table that keeps failing is closed, with a message, rather than left to loop."""
HEARTBEAT_SECONDS = 5.0
BATCH_TABLES = 8
"""Tables acting in one timer pass share one transaction (group commit), at most this many:
fewer round trips to the database, and a bounded wait for each of them."""
BATCHES_IN_FLIGHT = 2
"""While one batch is being written (SQLite works in its own thread), the next is computed."""
FLOOD_BURST = 30
FLOOD_RATE = 5.0
"""Per user: a burst of 30 commands (picking cards by button is many presses), then 5 a
second; beyond that commands are dropped."""


class TableManager:
    """Routes commands to tables (creating them with /new), runs their timers, and stores
    every accepted action before anything about it is sent."""

    def __init__(
        self, db: Database, send: Sender, *, clock: Callable[[], float] = time.time,
        seeds: Callable[[int], int] | None = None, language: str = DEFAULT_LANGUAGE,
        flood_burst: int = FLOOD_BURST, flood_rate: float = FLOOD_RATE,
    ) -> None:  # fmt: skip
        self.db = db
        self.send = send
        self.clock = clock
        self.seeds = seeds
        self.language = language
        self.tables: dict[str, Table] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._hand_ids: dict[str, int] = {}
        self._stored_actions: dict[str, int] = {}
        self._last_heartbeat = 0.0
        self._allowance: dict[str, tuple[float, float]] = {}
        self.user_langs: dict[str, str] = {}
        """Languages players chose with /lang in a private chat (also kept in storage)."""
        self.crashes: dict[str, tuple[int, int]] = {}
        """Failed steps per table: (the hand they happened in, how many); a new hand starts
        the count again."""
        self.flood_burst = float(flood_burst)
        self.flood_rate = flood_rate
        self.thinking = Thinking(self._decided)
        """Slow AI decisions under way in worker threads (`bot.thinking`)."""

    def lock(self, chat: str) -> asyncio.Lock:
        return self._locks.setdefault(chat, asyncio.Lock())

    def name_at(self, chat: str, user: str) -> str:
        """The player's name as the table in ``chat`` knows it (else the id)."""
        table = self.tables.get(chat)
        return table.names.get(user, user) if table is not None else user

    def language_at(self, chat: str) -> str:
        table = self.tables.get(chat)
        return table.lang if table is not None else self.language

    def table_of(self, user: str) -> str | None:
        """The chat of the open table where ``user`` sits (a running hand first), for what
        names no table: a deep link without one, completing /play in a private chat. (Typed
        private commands are routed by `bot.private`.)"""
        seated = [chat for chat, table in self.tables.items()
                  if table.state != CLOSED and table.seat_of(user) is not None]  # fmt: skip
        seated.sort(key=lambda chat: self.tables[chat].state != PLAYING)
        return seated[0] if seated else None

    def suggestions(self, chat: str, user: str) -> list[str]:
        """What ``user`` may complete `/play` with at the table in ``chat``."""
        table = self.tables.get(chat)
        seat = table.seat_of(user) if table is not None else None
        if table is None or seat is None or table.hand is None or table.hand.over:
            return []
        return table.front.suggestions(table.hand, seat)

    @staticmethod
    def presets(game: str) -> tuple[str, ...]:
        return presets(game)

    # ----------------------------------------------------------------- commands

    def _throttled(self, user: str) -> bool:
        """A token bucket per user: a user who floods commands is ignored for a moment."""
        now = self.clock()
        tokens, since = self._allowance.get(user, (self.flood_burst, now))
        tokens = min(self.flood_burst, tokens + (now - since) * self.flood_rate)
        if tokens < 1.0:
            self._allowance[user] = (tokens, now)
            return True
        self._allowance[user] = (tokens - 1.0, now)
        return False

    async def handle(self, command: Command) -> list[Outgoing]:
        """Run a command and store what it changed; returns the messages to send."""
        if self._throttled(command.user):
            return []
        chosen = self.user_langs.get(command.user)
        if chosen is None and command.private:
            chosen = await self.db.player_lang(command.user)
            if chosen:
                self.user_langs[command.user] = chosen
        if chosen:  # the player's own choice wins over the platform's language
            command = replace(command, lang=chosen)
        if not needs_routing(self.tables, command):
            return await self._handle_at(command)
        lang = normalize_language(command.lang) or self.language
        routed = route(self.tables, command, lang)
        if routed.answer is not None:
            return routed.answer.out
        out = []
        for each in routed.commands:
            answers = await self._handle_at(each)
            table = self.tables.get(each.chat)
            if routed.several and table is not None:
                answers = name_the_table(answers, table, each.user, lang)
            out += answers
        return out

    async def _handle_at(self, command: Command) -> list[Outgoing]:
        """Run a command at the table of its chat, store the step, return what to send."""
        async with self.lock(command.chat), table_context(command.chat):
            try:
                effects = await self._handle_locked(command)
                table = self.tables.get(command.chat)
                if table is not None:
                    async with self.db.transaction() as tx:
                        await self._store(tx, table, effects)
            except Exception:
                return await self._contain(command.chat, command)
        return effects.out

    async def _handle_locked(self, command: Command) -> Effects:
        table = self.tables.get(command.chat)
        lang = normalize_language(command.lang) or (table.lang if table else self.language)
        if command.name == "new":
            return await self._new_table(command, lang)
        if command.name == "lang" and command.private:
            return await self._private_language(command, table)
        if command.name == "stats":
            stats = await self.db.player_stats(command.user)
            text = t(
                lang,
                "{name}: {hands} hands, {wins} won, total {total}, first out {first} "
                "times, bonus in {bonus} hands",
                name=command.user_name,
                hands=stats["hands"],
                wins=stats["wins"],
                total=stats["total"],
                first=stats["first_out"],
                bonus=stats["bonus_hands"],
            )
            return Effects(out=[Outgoing("reply", command.chat, text, user=command.user)])
        if command.name == "top":
            rows = await self.db.leaderboard(command.chat)
            if not rows:
                return self._reply(command, lang, "No hand has been finished here yet.")
            lines = [t(lang, "Leaderboard:")] + [
                f"{i + 1}. {n} {a}" for i, (n, a) in enumerate(rows)
            ]
            return Effects(out=[Outgoing("group", command.chat, "\n".join(lines))])
        if command.name == "export":
            return await self._export(command, lang)
        if table is None or table.state == CLOSED:
            key = (
                N_("help_text")
                if command.name == "help"
                else N_("No table here. Open one with /new situan or /new erqiwang.")
            )
            return self._reply(command, lang, key)
        return table.handle(command)

    async def _private_language(self, command: Command, table: Table | None) -> Effects:
        """``/lang`` in a private chat is the player's language for every private message,
        at every table (and the table where they sit learns it at once)."""
        wanted = normalize_language(command.args[0]) if command.args else None
        if wanted is None:
            lang = self.user_langs.get(command.user) or self.language
            return self._reply(command, lang, "Languages: {languages}",
                               languages=", ".join(LANGUAGES))  # fmt: skip
        self.user_langs[command.user] = wanted
        await self.db.set_player(command.user, command.user_name, wanted)
        for other in self.tables.values():
            if other.seat_of(command.user) is not None:
                other.player_langs[command.user] = wanted
        effects = self._reply(command, wanted, "Language set.")
        effects.table_changed = table is not None and table.seat_of(command.user) is not None
        return effects

    @staticmethod
    def _reply(command: Command, lang: str, key: str, **values: object) -> Effects:
        text = t(lang, key, **values)
        return Effects(out=[Outgoing("reply", command.chat, text, user=command.user)])

    async def _new_table(self, command: Command, lang: str) -> Effects:
        existing = self.tables.get(command.chat)
        if existing is not None and existing.state != CLOSED:
            return self._reply(command, lang, "A table is already open here.")
        game = command.args[0].lower() if command.args else ""
        if game not in FRONTS:
            return self._reply(command, lang, "Say /new situan or /new erqiwang.")
        front = FRONTS[game]
        preset = command.args[1] if len(command.args) > 1 else front.game.default_preset
        try:
            table = Table(command.chat, game, preset, command.user, lang, self.clock, self.seeds)
        except RecordError:
            return self._reply(command, lang, "Unknown preset {preset}.", preset=preset)
        table.learn_title(command)
        self.tables[command.chat] = table
        self._hand_ids.pop(command.chat, None)
        effects = Effects(table_changed=True)
        effects.out.append(
            Outgoing(
                "group",
                command.chat,
                t(
                    lang,
                    "{name} opened a {game} table ({preset}). /join to sit down, /addbot for an "
                    "AI player, /start when four are seated.",
                    name=command.user_name,
                    game=t(lang, front.title),
                    preset=preset,
                ),
                buttons=(lobby_buttons(table),),
            )
        )
        effects.extend(
            table.handle(
                Command(
                    "join", (), command.user, command.user_name, command.chat, False, command.lang
                )
            )
        )
        return effects

    async def _export(self, command: Command, lang: str) -> Effects:
        hands = [h for h in await self.db.hands_of(command.chat) if h.result is not None]
        if not hands:
            return self._reply(command, lang, "No finished hand to export yet.")
        last = hands[-1]
        record = dict(last.start)
        record["actions"] = last.actions
        text = json.dumps(record, ensure_ascii=False)
        name = f"hand-{last.number}.json"
        out = Outgoing("private", command.chat, text, user=command.user, filename=name)
        return Effects(out=[out])

    # ----------------------------------------------------------------- chats that change

    async def move_chat(self, old: str, new: str) -> list[Outgoing]:
        """The chat got a new id (a Telegram group became a supergroup): its table, hands and
        ledger follow, and the group is told once. Returns what to send."""
        async with self.lock(old), self.lock(new):
            table = self.tables.pop(old, None)
            async with self.db.transaction() as tx:
                await tx.move_table(old, new)
            if table is None:
                return []
            table.chat = new
            self.tables[new] = table
            for mapping in (self._hand_ids, self._stored_actions):
                if old in mapping:
                    mapping[new] = mapping.pop(old)
            line = Outgoing("group", new, table.say("This group moved; the table moved with it."))
            out = [line]
            if table.hand is not None and table.state == PLAYING:
                from bot.playing import table_message

                out.append(table_message(table))
            return out

    async def close_chat(self, chat: str) -> None:
        """The bot can no longer post in ``chat`` (removed from the group): its table is
        closed, its seats freed, and nothing is sent there."""
        async with self.lock(chat):
            table = self.tables.pop(chat, None)
            async with self.db.transaction() as tx:
                await tx.delete_table(chat)
            if table is not None:
                table.state = CLOSED
                table.seats = [None, None, None, None]
                table.deadline = None

    # ----------------------------------------------------------------- time

    async def tick(self) -> None:
        """Let every table act on its timers (AI seats, 托管, time-outs, ready), storing the
        tables that acted together in batches before anything about them is sent."""
        now = self.clock()
        due = []
        for chat, table in self.tables.items():
            if table.deadline is None or now < table.deadline or self.thinking.busy(chat):
                continue
            decision = slow_decision(table)
            if decision is not None:
                self.thinking.start(decision)  # decided off the loop, applied when back
            else:
                due.append(chat)
        in_flight: set[asyncio.Task[None]] = set()
        for start in range(0, len(due), BATCH_TABLES):
            in_flight.add(asyncio.create_task(self._tick_batch(due[start : start + BATCH_TABLES])))
            if len(in_flight) >= BATCHES_IN_FLIGHT:
                done, in_flight = await asyncio.wait(in_flight, return_when=FIRST_COMPLETED)
                for task in done:
                    task.result()
        if in_flight:
            await asyncio.gather(*in_flight)
        now = self.clock()
        if now - self._last_heartbeat >= HEARTBEAT_SECONDS:
            self._last_heartbeat = now
            self.prune()
            await self.db.set_meta("alive_at", repr(now))

    async def _tick_batch(self, chats: list[str]) -> None:
        async with contextlib.AsyncExitStack() as held:
            steps: list[tuple[Table, Effects]] = []
            failed: list[str] = []
            for chat in chats:
                await held.enter_async_context(self.lock(chat))
                table = self.tables.get(chat)
                if table is None or table.deadline is None or self.clock() < table.deadline:
                    continue  # a command came first and moved the timer
                try:
                    with table_context(chat):
                        steps.append((table, table.tick()))
                except Exception:
                    failed.append(chat)
            try:
                await self._store_batch(steps)
            except Exception:  # one table's bad step must not cost the others theirs
                log.exception("storing a batch of %d tables failed; storing one by one", len(steps))
                steps = await self._store_each(steps, failed)
            for _, effects in steps:
                for message in effects.out:
                    await self.send(message)
            for chat in failed:
                with table_context(chat):
                    contained = await self._contain(chat, None)
                for message in contained:
                    await self.send(message)

    async def _decided(self, decision: Decision, action: Action | None) -> None:
        """A slow AI decision came back: applied and stored if the table is still where it
        was when asked (else dropped: the table moved on and its timer asks again)."""
        chat = decision.chat
        async with self.lock(chat), table_context(chat):
            table = self.tables.get(chat)
            if table is None or not decision.still_current(table):
                return
            try:
                if action is None:
                    raise RuntimeError("the AI decision failed")
                effects = apply_action(table, action)
                async with self.db.transaction() as tx:
                    await self._store(tx, table, effects)
                out = effects.out
            except Exception:
                out = await self._contain(chat, None)
            for message in out:
                await self.send(message)

    async def _store_each(
        self, steps: list[tuple[Table, Effects]], failed: list[str]
    ) -> list[tuple[Table, Effects]]:
        stored = []
        for table, effects in steps:
            try:
                async with self.db.transaction() as tx:
                    await self._store(tx, table, effects)
            except Exception:
                failed.append(table.chat)
            else:
                stored.append((table, effects))
        return stored

    def prune(self) -> None:
        """Forget what no longer matters, so memory does not grow with everyone who ever
        typed: full allowances, and the locks of chats with no table."""
        now = self.clock()
        refill = self.flood_burst / self.flood_rate
        self._allowance = {user: (tokens, since) for user, (tokens, since)
                           in self._allowance.items() if now - since < refill}  # fmt: skip
        self._locks = {chat: lock for chat, lock in self._locks.items()
                       if chat in self.tables or lock.locked()}  # fmt: skip

    async def run_timers(self, stop: asyncio.Event, step: float = 0.2) -> None:
        """Run the tables' timers until ``stop``; nothing a table does can end this loop."""
        while not stop.is_set():
            try:
                await self.tick()
            except Exception:
                log.exception("a timer pass failed; the timers go on")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=step)
        await self.thinking.settle()  # a decision under way is applied and stored, not lost

    # ----------------------------------------------------------------- faults

    async def _contain(self, chat: str, command: Command | None) -> list[Outgoing]:
        """A step of this table raised: log it once with the table and its trace, put the
        table back as storage last knew it, and step by step make it safer — every seat by
        托管, then paused until the host's /resume, then closed. Other tables never notice."""
        log.exception("table %s: a step failed (%s)", chat, command.name if command else "timer")
        before = self.tables.get(chat)
        number = before.hand_number if before is not None else 0
        hand, crashes = self.crashes.get(chat, (number, 0))
        crashes = crashes + 1 if hand == number else 1
        self.crashes[chat] = (number, crashes)
        out: list[Outgoing] = []
        try:
            table = await self._reload(chat)
        except Exception:
            log.exception("table %s: could not be reloaded; it is closed", chat)
            self.tables.pop(chat, None)
            return out
        if table is None:
            return out
        if command is not None:
            text = t(table.answer_lang(command), "Something went wrong; nothing was changed.")
            out.append(Outgoing("reply", chat, text, user=command.user))
        if crashes >= CLOSE_AFTER:
            out.append(table.group("This table kept failing and is closed."))
            effects = table.close()
            async with self.db.transaction() as tx:
                await self._store(tx, table, effects)
            return out + effects.out
        table.safe_mode = crashes >= SAFE_AFTER
        if crashes >= PAUSE_AFTER and table.deadline is not None:
            table.pause()
            out.append(table.group("This table hit an error and is paused; the host can /resume."))
        return out

    async def _reload(self, chat: str) -> Table | None:
        """The table of ``chat`` rebuilt from what storage holds (its last committed step)."""
        self.tables.pop(chat, None)
        for stored in await self.db.open_tables():
            if stored.chat == chat:
                await self._restore_table(stored, None, announce=False)
        return self.tables.get(chat)

    # ----------------------------------------------------------------- storage

    async def _store_batch(self, steps: list[tuple[Table, Effects]]) -> None:
        """Store several tables' steps in one transaction, committed on return (the common
        case — actions and timers — in one statement each)."""
        async with self.db.transaction() as tx:
            await self._store_steps(tx, steps)

    async def _store_steps(self, tx: Transaction, steps: list[tuple[Table, Effects]]) -> None:
        rows: list[ActionRow] = []
        snapshots: list[TableRow] = []
        timers: list[TimerRow] = []
        for table, effects in steps:
            if effects.hand_finished is not None or effects.hand_started is not None:
                await self._store(tx, table, effects)  # rare: a hand ends or starts
                continue
            rows += self._action_rows(table.chat, effects)
            if effects.table_changed:
                snapshots.append(TableRow(table.chat, table.game, table.state,
                                          table_snapshot(table)))  # fmt: skip
            elif effects.actions:  # only the turn moved on: the timer is all that changed
                timers.append(TimerRow(table.chat, table.deadline, table.turn_count,
                                       self.clock()))  # fmt: skip
        if rows:
            await tx.append_actions(rows)
        if snapshots:
            await tx.save_tables(snapshots)
        if timers:
            await tx.save_timers(timers)

    def _action_rows(self, chat: str, effects: Effects) -> list[ActionRow]:
        seq = self._stored_actions.get(chat, 0)
        self._stored_actions[chat] = seq + len(effects.actions)
        return [ActionRow(self._hand_ids[chat], seq + offset, action)
                for offset, action in enumerate(effects.actions)]  # fmt: skip

    async def _store(self, tx: Transaction, table: Table, effects: Effects) -> None:
        """Store a step: its actions belong to the hand that was current when it began, which
        may then finish; a new hand dealt in the same step comes after."""
        chat = table.chat
        if effects.actions:
            await tx.append_actions(self._action_rows(chat, effects))
        if effects.hand_finished is not None:
            result, ledger = effects.hand_finished
            lines = [LedgerLine(*line) for line in ledger]
            await tx.finish_hand(self._hand_ids[chat], chat, result, lines)
        if effects.hand_started is not None:
            hand_id = await tx.start_hand(chat, table.match, table.hand_number,
                                          effects.hand_started)  # fmt: skip
            self._hand_ids[chat] = hand_id
            self._stored_actions[chat] = 0
        if effects.table_changed or effects.actions:
            await tx.save_tables([TableRow(chat, table.game, table.state, table_snapshot(table))])

    async def restore(self) -> None:
        """Rebuild every open table from storage; running hands get a 'table restored' line
        and a fresh table message, and their timers resume with the time that was left. A
        table that cannot be rebuilt is logged and left closed; the others come back."""
        alive = await self.db.meta("alive_at")
        alive_at = float(alive) if alive else None
        for stored in await self.db.open_tables():
            try:
                with table_context(stored.chat):
                    await self._restore_table(stored, alive_at, announce=True)
            except Exception:
                log.exception("table %s could not be restored", stored.chat)
                self.tables.pop(stored.chat, None)

    async def _restore_table(self, stored: StoredTable, alive_at: float | None,
                             announce: bool) -> None:  # fmt: skip
        data = stored.settings
        table = Table(stored.chat, stored.game, data["preset"], data["host"], data["lang"],
                      self.clock, self.seeds)  # fmt: skip
        restore_table(table, stored.state, data)
        hands = await self.db.hands_of(stored.chat, table.match, table.hand_number)
        if table.state == PLAYING and hands and hands[-1].result is None:
            current = hands[-1]
            game = table.front.game
            hand = game.hand_from_record(current.start)
            for raw in current.actions:
                action = game.action_from_json(raw)
                assert not isinstance(action, str), action
                hand.apply(action)
            self._hand_ids[stored.chat] = current.id
            self._stored_actions[stored.chat] = len(current.actions)
            self.tables[stored.chat] = table
            # The timer ran until the bot was last known alive (its heartbeat, or the last
            # save, on the table's own clock), then waits on with what was left.
            stopped = max(alive_at or 0.0, float(data.get("saved_at", 0.0)))
            restored = table.resume(hand, stopped if announce else self.clock())
            if announce:
                for message in restored:
                    await self.send(message)
            return
        if hands and hands[-1].result is None and table.state != PLAYING:
            self._hand_ids[stored.chat] = hands[-1].id
        self.tables[stored.chat] = table
