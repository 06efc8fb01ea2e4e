"""A table's fields — what each holds — and the questions asked of them: who sits where, in
which language, whose turn it is and how long is left, the match's totals. Nothing here changes
a table after it is built: `bot.table.state.Table`, built on these, does that.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any

from bot.games import front_of
from bot.i18n import LANGUAGES, N_, normalize_language, t
from bot.reading.command import Command
from bot.reading.table_options import TableOptions
from bot.table.closings import Closings
from bot.table.effects import Effects
from bot.table.hint_book import HintBook
from bot.table.seats import Seat
from bot.table.table_phases import Phase
from bot.table.what_was_shown import WhatWasShown
from bot.views.controls import Selection, Stamp, match_tag
from bot.views.outgoing import Kind, Outgoing
from bot.views.shared_texts import seat_number
from engine.game import AnyHand, Carry

LOBBY, PLAYING, BETWEEN, CLOSED = Phase.LOBBY, Phase.PLAYING, Phase.BETWEEN, Phase.CLOSED
REMINDER_AT = 0.25
"""A person whose turn it is is reminded when this share of their time is left."""
ONLY_HOST = N_("Only the host or an admin of this chat can do that.")
"""The refusal of a host's command: it says who may give it."""
TITLE_LENGTH = 48
"""A group's name is kept to this many characters (it heads private messages)."""


@functools.cache
def ai_name(lang: str, seat: int) -> str:
    """An AI player's name in ``lang`` (asked for with every message: worth keeping)."""
    return t(lang, "AI {seat}", seat=seat_number(seat))


PLAYER_WORDS = frozenset(t(language, "Player") for language in LANGUAGES)
"""The word for a player in each language: the console's name for its person."""


class TableFields:
    """A table's fields and the questions asked of them (`bot.table.state.Table` changes them)."""

    def __init__(
        self,
        chat: str,
        game: str,
        preset: str,
        host: str,
        lang: str,
        clock: Callable[[], float],
        seeds: Callable[[int], int] | None = None,
    ) -> None:
        self.chat = chat
        self.game = game
        self.front = front_of(game)
        self.preset = preset
        self.options: dict[str, Any] = {}
        self.table_options = TableOptions()
        self.rules = self.front.game.rules(preset)
        self.host = host
        self.lang = lang
        self.clock = clock
        self.seeds = seeds or (lambda number: random.SystemRandom().randrange(2**62))
        """The shuffle seed of hand ``number`` (random unless a test or demo fixes it)."""
        self.state = LOBBY
        self.seats: list[Seat | None] = [None, None, None, None]
        self.hand: AnyHand | None = None
        self.last_hand: AnyHand | None = None
        """Once the match is over: the hand it ended with, if played to its end (its
        settlement stays on the web table's pages with the match's score)."""
        self.hand_number = 0
        self.carry: Carry | None = None
        """What the next hand of the match starts from (None: the first hand)."""
        self.ledger: dict[str, Fraction] = {}
        self.names: dict[str, str] = {}
        self.player_langs: dict[str, str] = {}
        self.turn_seat: int | None = None
        self.deadline: float | None = None
        self.reminder_at: float | None = None
        """When the person whose turn it is gets a reminder (a quarter of their time left);
        None once it is sent, or when the turn is not a person's."""
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
        self.closings = Closings()
        """This hand's closed tricks or rounds, and how many the group was shown."""
        self.sent = WhatWasShown()
        """What was sent (memory only): turn notices, private views, the phase's buttons."""
        self.selections: dict[int, Selection] = {}
        """Cards chosen by button, not yet played (kept in memory only)."""
        self.hints = HintBook()
        """The hints given in the hand being played (`bot.hosting.hinting`)."""
        self.acted_at: dict[int, float] = {}
        """When each seat last acted (a notice right after is not needed)."""
        self.confirming: tuple[int, int, int, str] | None = None
        """A command waiting for its second press: (hand, turn, seat, command)."""
        self.safe_mode = False
        """After a failed step every seat is played by 托管 (the engine's own choice)."""
        self.paused = False
        """After repeated failures the hand waits for the host's /resume."""
        self.alone_since: float | None = None
        """Since when no person has been at the table (seated and not gone); None while
        someone is. After ``idle_minutes`` the table closes (`bot.commands.steps.tick`)."""
        self.title = ""
        """The group's name as the platform last told it ("" where it does not): private
        messages name the table by it."""
        self.people_acted = False
        """A seated person acted in this hand by their own command (not the table for them):
        a hand nobody played in is not followed by another (`hold`)."""
        self.on_hold = False
        """Between hands, the table waits for a person to come back (nobody played the last
        hand, or nobody was ready): no hand is dealt until one presses Continue (/ready),
        and the match ends after ``idle_minutes``."""
        self.unattended = False
        """The match was started with no person at the table (the console's ``--humans 0``):
        its AI players play on by themselves, on purpose."""

    # ----------------------------------------------------------------- reading

    @property
    def tag(self) -> str:
        """A short name for this match in button stamps."""
        if self._tag[0] != self.match:
            self._tag = (self.match, match_tag(self.match))
        return self._tag[1]

    def stamp(self, turn: bool = False) -> Stamp:
        return Stamp(self.tag, self.hand_number, self.turn_count if turn else None)

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
        return Effects(out=[Outgoing(Kind.REPLY, self.chat, text, user=command.user, public=True)])

    def group(self, key: str, **values: object) -> Outgoing:
        said = lambda lang: t(lang, key, **values)  # noqa: E731 - a quick table's readers
        return Outgoing(Kind.GROUP, self.chat, self.say(key, **values), said=said)

    def host_only(self, command: Command) -> Effects | None:
        """The host's commands are the host's, and the chat's administrators'."""
        if command.user != self.host and not command.admin:
            return self.reply(command, ONLY_HOST)
        return None

    def is_open(self) -> bool:
        return self.state != CLOSED

    def ledger_key(self, seat: int) -> str:
        """Whose line of the match's ledger a seat's amounts join: its person's, or that
        seat's AI player's."""
        occupant = self.seats[seat]
        return occupant.user if occupant is not None and occupant.user else f"ai:{seat}"

    def staked(self, amounts: Iterable[Fraction]) -> list[Fraction]:
        """A hand's amounts in units, at this table's stake."""
        stake = self.table_options.stake
        return [amount * stake for amount in amounts]

    def match_totals(self) -> list[Fraction]:
        """Each seat's running total in the match's ledger."""
        return [self.ledger.get(self.ledger_key(seat), Fraction(0)) for seat in range(4)]

    def has_people(self) -> bool:
        """Whether a person is at the table: seated, not gone and not on 托管 (a person on
        托管, by time-outs or by choice, is away: the table plays for them)."""
        auto = self.hand.auto if self.hand is not None and self.state == PLAYING else None
        return any(
            s is not None and not s.ai and not s.left and not (auto and auto[index])
            for index, s in enumerate(self.seats)
        )

    def people(self) -> list[int]:
        """The seats where a person sits (AI players aside)."""
        return [i for i, s in enumerate(self.seats) if s is not None and not s.ai]

    def idle_for(self) -> float:
        """Seconds since the last person went (0 while someone is at the table)."""
        return 0.0 if self.alone_since is None else self.clock() - self.alone_since

    def acts_by_itself(self, seat: int) -> bool:
        """AI seats, seats on 托管 and players who left are played by the table."""
        occupant = self.seats[seat]
        assert self.hand is not None
        return occupant is None or occupant.ai or occupant.left or bool(self.hand.auto[seat])

    def waits_for_a_person(self) -> bool:
        seat = self.turn_seat
        return seat is not None and not self.acts_by_itself(seat)

    def next_wake(self) -> float | None:
        """When the table next acts by itself: a reminder, or the end of a wait."""
        if self.reminder_at is not None and self.deadline is not None:
            return min(self.reminder_at, self.deadline)
        return self.deadline

    def seconds_left(self) -> int | None:
        if self.deadline is None or self.turn_seat is None:
            return None
        return max(0, round(self.deadline - self.clock()))

    def selection(self, seat: int) -> Selection | None:
        return self.selections.get(seat)
