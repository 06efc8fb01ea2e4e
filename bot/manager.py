"""The TableManager: one table per chat, one lock per chat, storage first, then sending.

`handle` returns what a command asks to be sent — the caller (an adapter) delivers it — after
the step is stored; what tables do by themselves on their timers goes to ``send``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from dataclasses import replace

from bot.commands import Command
from bot.effects import Effects
from bot.games import FRONTS, preset_text, presets, presets_text
from bot.i18n import DEFAULT_LANGUAGE, LANGUAGES, N_, normalize_language, t
from bot.keeping import Sender
from bot.leasing import Ownership
from bot.lobby import lobby_buttons, score
from bot.logs import table_context
from bot.outgoing import Outgoing
from bot.private import name_the_table, needs_routing, route, seated_tables
from bot.table import CLOSED, PLAYING, Table
from bot.thinking import Thinking
from bot.timers import TableTimers
from engine.errors import RecordError
from storage import Database
from storage.leases import LeaseLost

log = logging.getLogger(__name__)
FLOOD_BURST = 30
FLOOD_RATE = 5.0
"""Per user: a burst of 30 commands (picking cards by button is many presses), then 5 a
second; beyond that commands are dropped."""
ELSEWHERE = N_(
    "Your table is run by another of this bot's servers: play it with the buttons at the table."
)
"""Said to a private command for a table another process holds (there is no handing on a
Discord direct message; Telegram's are handed on before they get here)."""


class TableManager(TableTimers):
    """Routes commands to tables (creating them with /new), runs their timers, and stores
    every accepted action before anything about it is sent (its timers: `bot.timers`; its
    storing, restoring and fault containment: `bot.keeping`)."""

    def __init__(
        self, db: Database, send: Sender, *, clock: Callable[[], float] = time.time,
        seeds: Callable[[int], int] | None = None, language: str = DEFAULT_LANGUAGE,
        flood_burst: int = FLOOD_BURST, flood_rate: float = FLOOD_RATE,
        ownership: Ownership | None = None,
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
        self.crashes = {}
        self.flood_burst = float(flood_burst)
        self.flood_rate = flood_rate
        self.ownership = ownership
        self.held = set()
        self._renewed_at = self._scanned_at = float("-inf")
        self.thinking = Thinking(self._decided)
        """Slow AI decisions under way in worker threads (`bot.thinking`)."""

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

    def suggestions(self, chat: str, user: str) -> list[tuple[str, str]]:
        """What ``user`` may complete `/play` with at the table in ``chat``: (how it reads
        in the player's language, what `/play` takes)."""
        table = self.tables.get(chat)
        seat = table.seat_of(user) if table is not None else None
        if table is None or seat is None or table.hand is None or table.hand.over:
            return []
        lang, front = table.lang_of(user), table.front
        values = dict.fromkeys(front.suggestions(table.hand, seat))
        return [(front.suggestion_label(lang, value), value) for value in values]

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
        if self.ownership is not None and await self._played_elsewhere(command):
            return [Outgoing("reply", command.chat, t(lang, ELSEWHERE), user=command.user)]
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

    async def _played_elsewhere(self, command: Command) -> bool:
        """Sharing the database, a private command may be for a table another process holds
        (a Discord direct message reaches shard 0's process): a button of that table, or a
        typed command of a player seated nowhere here. A table whose owner died is taken
        over here instead (by `forward_address`)."""
        assert self.ownership is not None
        lease = (await self.db.leases_of([command.chat], self.clock())).get(command.chat)
        if lease is not None:  # a button of a table, pressed in a private chat
            return lease.owner != self.ownership.owner
        if seated_tables(self.tables, command.user):
            return False
        elsewhere = await self.players_leases_elsewhere(command.user)
        return bool(elsewhere) and not seated_tables(self.tables, command.user)  # none taken

    async def _handle_at(self, command: Command) -> list[Outgoing]:
        """Run a command at the table of its chat, store the step, return what to send."""
        async with self.lock(command.chat), table_context(command.chat):
            try:
                if self._at_a_table(command) and await self._take(command.chat) is not None:
                    return await self._elsewhere(command)
                effects = await self._handle_locked(command)
                table = self.tables.get(command.chat)
                if table is not None:
                    async with self.db.transaction() as tx:
                        await self._store(tx, table, effects)
            except LeaseLost as lost:
                self._lose(lost.chats)
                return await self._elsewhere(command)
            except Exception:
                return await self._contain(command.chat, command)
        return effects.out

    def _at_a_table(self, command: Command) -> bool:
        """Whether a command acts at a table (a group's, or one a private command was routed
        to) — what needs the table's lease when processes share the database."""
        return self.ownership is not None and (not command.private or command.chat in self.tables)

    async def _elsewhere(self, command: Command) -> list[Outgoing]:
        """The table is another process's. A command from its own chat at a process that takes
        no updates handed on asks for it (it is handed over within a third of a lease: a
        Discord process gets its shards' channels' tables back after a failover); with
        Telegram's handing on this is only a race, and the next update finds the owner. A
        private command is told where to play."""
        lang = normalize_language(command.lang) or self.language
        if command.private:
            return [Outgoing("reply", command.chat, t(lang, ELSEWHERE), user=command.user)]
        ownership = self.ownership
        assert ownership is not None
        if not ownership.address:  # it takes no updates handed on: it must own what it gets
            async with self.db.transaction() as tx:
                await tx.ask_for(command.chat, ownership.owner, ownership.address)
        text = t(lang, "This table moved to another server a moment ago. Please try again.")
        return [Outgoing("reply", command.chat, text, user=command.user)]

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
            kind = "reply" if command.private else "group"  # asked privately: said privately
            out = Outgoing(kind, command.chat, "\n".join(lines), user=command.user)
            return Effects(out=[out])
        if command.name == "export":
            return await self._export(command, lang)
        if table is not None and table.state == CLOSED and command.name == "score":
            return score(table, command)  # the match just over: its final score
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
            return self._reply(command, lang, "Unknown preset {preset}. Presets: {choices}.",
                               preset=preset, choices=presets_text(lang, game))  # fmt: skip
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
                    preset=preset_text(lang, game, preset),
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
                from bot.hand_views import table_message

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
