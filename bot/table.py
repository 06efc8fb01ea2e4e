"""One table in one chat: its state, seats, stamps, and the dispatch of commands and time.

A table is pure logic with an injected clock: `handle` (a command) and `tick` (time passing)
return `Effects` — what to store, then what to send. The manager stores first and sends after,
so nothing a player saw as accepted can be lost. The lobby's commands live in `bot.lobby`,
the hand's in `bot.playing`; what a game looks like in `bot.games`.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from bot import hand_views, lobby, playing
from bot.commands import Command
from bot.controls import Selection, Stamp
from bot.effects import Effects
from bot.games import BadInput, front_of
from bot.i18n import N_, normalize_language, t
from bot.outgoing import Button, Outgoing
from bot.seats import Seat
from bot.settings import TABLE_OPTIONS, BadSetting
from engine.game import Carry, Hand

LOBBY, PLAYING, BETWEEN, CLOSED = "lobby", "playing", "between", "closed"
TITLE_LENGTH = 48
"""A group's name is kept to this many characters (it heads private messages)."""
MATCH_WIDE = frozenset({"join", "addbot", "start", "hand"})
"""Buttons that mean the same in any hand of the match (the lobby post's, "My hand"): their
stamp need only name this match."""

Handler = Callable[["Table", Command], Effects]
HANDLERS: dict[str, Handler] = {**lobby.COMMANDS, **playing.COMMANDS}

__all__ = ["BETWEEN", "CLOSED", "LOBBY", "PLAYING", "TABLE_OPTIONS", "Effects", "Seat", "Table"]


@functools.cache
def ai_name(lang: str, seat: int) -> str:
    """An AI player's name in ``lang`` (asked for with every message: worth keeping)."""
    return t(lang, "AI {seat}", seat=seat)


class Table:
    def __init__(
        self, chat: str, game: str, preset: str, host: str, lang: str,
        clock: Callable[[], float], seeds: Callable[[int], int] | None = None,
    ) -> None:  # fmt: skip
        self.chat = chat
        self.game = game
        self.front = front_of(game)
        self.preset = preset
        self.options: dict[str, Any] = {}
        self.table_options: dict[str, Any] = dict(TABLE_OPTIONS)
        self.rules = self.front.game.rules(preset)
        self.host = host
        self.lang = lang
        self.clock = clock
        self.seeds = seeds or (lambda number: random.SystemRandom().randrange(2**62))
        """The shuffle seed of hand ``number`` (random unless a test or demo fixes it)."""
        self.state = LOBBY
        self.seats: list[Seat | None] = [None, None, None, None]
        self.hand: Hand | None = None
        self.hand_number = 0
        self.carry: Carry | None = None
        """What the next hand of the match starts from (None: the first hand)."""
        self.ledger: dict[str, Fraction] = {}
        self.names: dict[str, str] = {}
        self.player_langs: dict[str, str] = {}
        self.turn_seat: int | None = None
        self.deadline: float | None = None
        self.stop_votes: set[str] = set()
        self.carried_auto: set[str] = set()
        """The people who ended the last hand on 托管 and have not said /ready since: the new
        hand puts them on 托管 again at its first tick, if they still sit here (a step of its
        own, so it is recorded in the new hand)."""
        self.match = f"{clock():.6f}"
        """This match's id: a new /new in the same chat starts a new match."""
        self.turn_count = 0
        """Turns taken in this hand: buttons for an action carry it and go stale after."""
        self._tag = ("", "")
        self._names: tuple[tuple[Seat | None, ...], str, tuple[str, ...]] = ((), "", ())
        """`seat_names` as last made: the seats (a seat is replaced, never renamed), the
        language and the names."""
        self.table_chrome: tuple[object, tuple[tuple[Button, ...], ...], str] = ((), (), "")
        """The table message's button and slot for the current hand (they do not change)."""
        self.closings = hand_views.Closings()
        """This hand's closed tricks or rounds, and how many the group was shown."""
        self.selections: dict[int, Selection] = {}
        """Cards chosen by button, not yet played (kept in memory only)."""
        self.notified: tuple[int, int, int] | None = None
        """The (hand, turn, seat) whose turn notice was sent last."""
        self.acted_at: dict[int, float] = {}
        """When each seat last acted (a notice right after is not needed)."""
        self.confirming: tuple[int, int, int, str] | None = None
        """A command waiting for its second press: (hand, turn, seat, command)."""
        self.safe_mode = False
        """After a failed step every seat is played by 托管 (the engine's own choice)."""
        self.paused = False
        """After repeated failures the hand waits for the host's /resume."""
        self.shown: dict[int, tuple[str, Any]] = {}
        """The private hand view last sent to each seat (text and buttons), so that an
        unchanged one is not sent again."""
        self.title = ""
        """The group's name as the platform last told it ("" where it does not): private
        messages name the table by it."""

    @property
    def tag(self) -> str:
        """A short name for this match in button stamps."""
        if self._tag[0] != self.match:
            number, digits = int(float(self.match) * 1_000_000), ""
            for _ in range(5):
                number, digit = divmod(number, 36)
                digits += "0123456789abcdefghijklmnopqrstuvwxyz"[digit]
            self._tag = (self.match, digits)
        return self._tag[1]

    def stamp(self, turn: bool = False) -> Stamp:
        return Stamp(self.tag, self.hand_number, self.turn_count if turn else None)

    # ----------------------------------------------------------------- helpers

    def say(self, key: str, **values: object) -> str:
        return t(self.lang, key, **values)

    def seat_of(self, user: str) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat is not None and seat.user == user:
                return index
        return None

    def seat_names(self, lang: str | None = None) -> list[str]:
        """Who sits where, for a reader of ``lang`` (the table's language by default): an AI
        player's name is in the reader's language. Asked after every action, so kept while
        the same seats are read in the same language."""
        language = lang or self.lang
        seats = tuple(self.seats)
        kept_seats, kept_language, kept_names = self._names
        if kept_language == language and kept_seats == seats:
            return list(kept_names)
        names = [
            "—" if seat is None else ai_name(language, index) if seat.ai else seat.name
            for index, seat in enumerate(seats)
        ]
        self._names = (seats, language, tuple(names))
        return names

    def label(self, lang: str) -> str:
        """How a private message names this table: the group's name, else the game and the
        host (the console, or a table stored before names were kept)."""
        if self.title:
            return self.title
        return f"{t(lang, self.front.title)} · {self.names.get(self.host, self.host)}"

    def learn_title(self, command: Command) -> bool:
        """Take the group's name from a command typed there; True when it changed."""
        title = " ".join((command.chat_title or "").split())[:TITLE_LENGTH]
        if command.private or not title or title == self.title:
            return False
        self.title = title
        return True

    def lang_of(self, user: str | None) -> str:
        return self.player_langs.get(user or "", self.lang)

    def answer_lang(self, command: Command) -> str:
        """The language to answer ``command`` in: the player's, else the platform's, else
        the table's."""
        known = self.player_langs.get(command.user)
        return known or normalize_language(command.lang) or self.lang

    def reply(self, command: Command, key: str, **values: object) -> Effects:
        """An answer to the user who sent ``command``, from a message of the host's own
        (never a card of theirs: it may be said in the group where it cannot go privately)."""
        text = t(self.answer_lang(command), key, **values)
        return Effects(out=[Outgoing("reply", self.chat, text, user=command.user, public=True)])

    def group(self, key: str, **values: object) -> Outgoing:
        return Outgoing("group", self.chat, self.say(key, **values))

    # ----------------------------------------------------------------- commands

    def handle(self, command: Command) -> Effects:
        handler = HANDLERS.get(command.name)
        if handler is None:
            return self.reply(command, "Unknown command. Try /help.")
        stale = None if command.stamp is None else self._stale(command.stamp, command.name)
        if stale is not None:
            return self.reply(command, stale)
        try:
            effects = handler(self, command)
        except (BadInput, BadSetting) as bad:
            return self.reply(command, bad.key, **bad.values)
        if (effects.table_changed or effects.actions) and self.learn_title(command):
            effects.table_changed = True  # only what is accepted is kept (never a stranger's)
        if self.state == LOBBY and effects.table_changed:  # activity keeps a lobby open
            self.deadline = self.clock() + float(self.table_options["lobby_timeout"])
        return effects

    def remember(self, command: Command) -> None:
        """A player's name and platform language, when they sit down. Only players are
        remembered, and only then: whatever else anyone types leaves no trace in the table
        (and so in what is stored) unless it is accepted."""
        language = normalize_language(command.lang)
        if language and command.user not in self.player_langs:
            self.player_langs[command.user] = language
        self.names.setdefault(command.user, command.user_name)

    def _stale(self, text: str, name: str) -> str | None:
        """Why a button press no longer applies, or None when its stamp is current."""
        stamp = Stamp.read(text)
        if stamp is None:
            return N_("That button is not valid.")
        if name in MATCH_WIDE and stamp.table == self.tag:
            return None
        if stamp.table != self.tag or stamp.hand != self.hand_number:
            return N_("That button belongs to an earlier hand.")
        if stamp.turn is not None and stamp.turn != self.turn_count:
            return N_("That button is out of date: the game has moved on.")
        return None

    def host_only(self, command: Command) -> Effects | None:
        """The host's commands are the host's, and the chat's administrators'."""
        if command.user != self.host and not command.admin:
            return self.reply(command, "Only the host can do that.")
        return None

    # ----------------------------------------------------------------- time

    def tick(self) -> Effects:
        """Act for whoever's time is up: AI seats, 托管, time-outs, the ready timer."""
        if self.deadline is None or self.clock() < self.deadline:
            return Effects()
        if self.state == LOBBY:
            effects = Effects(out=[self.group("The lobby was idle too long and closes.")])
            effects.extend(lobby.close(self))
            return effects
        if self.state == BETWEEN:
            return lobby.ready_timeout(self)
        if self.state != PLAYING or self.hand is None or self.turn_seat is None:
            return Effects()
        if self.carried_auto:
            return playing.carry_auto(self)
        return playing.act_for_seat(self, self.turn_seat)

    def close(self) -> Effects:
        return lobby.close(self)

    def pause(self) -> None:
        self.paused = True
        self.deadline = None

    def seconds_left(self) -> int | None:
        if self.deadline is None or self.turn_seat is None:
            return None
        return max(0, round(self.deadline - self.clock()))

    def resume(self, hand: Hand, stopped_at: float, line: str | None = None) -> list[Outgoing]:
        """Put a replayed hand back after a restart: its timer waits on with the time that
        was left when the bot stopped; the group gets a line (``line``, else that the table
        was restored) and a fresh table message."""
        self.hand = hand
        self.turn_seat = hand.to_act
        if self.deadline is not None:
            self.deadline = self.clock() + max(0.0, self.deadline - stopped_at)
        said = self.say(line or N_("Table restored after a restart."))
        restored = Outgoing("group", self.chat, said)
        return [restored, hand_views.table_message(self)]
