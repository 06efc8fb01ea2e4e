"""One table in one chat: its state, and the only code that changes it.

A `Table` is pure state with an injected clock. Its fields are read by the modules above it
(the lobby's and the hand's command handlers, `bot.dispatch`, the views); they change only
through its own methods, which are named after what happens at a table (`sit`, `deal`,
`turn_taken`, `close`…). It imports none of the modules that use it.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable
from dataclasses import replace
from fractions import Fraction
from typing import Any

from bot.closings import Closings
from bot.commands import Command
from bot.controls import Selection, Stamp
from bot.effects import Effects
from bot.games import front_of
from bot.hint_book import HintBook
from bot.i18n import LANGUAGES, N_, normalize_language, t
from bot.outgoing import Button, Kind, Outgoing
from bot.phases import Phase
from bot.practice import untimed
from bot.seats import Seat, seat_number
from bot.settings import TABLE_OPTIONS
from engine.game import AnyHand, Carry

LOBBY, PLAYING, BETWEEN, CLOSED = Phase.LOBBY, Phase.PLAYING, Phase.BETWEEN, Phase.CLOSED
REMINDER_AT = 0.25
"""A person whose turn it is is reminded when this share of their time is left."""
ONLY_HOST = N_("Only the host or an admin of this chat can do that.")
"""The refusal of a host's command: it says who may give it."""
TITLE_LENGTH = 48
"""A group's name is kept to this many characters (it heads private messages)."""

__all__ = ["BETWEEN", "CLOSED", "LOBBY", "ONLY_HOST", "PLAYING", "Phase", "Seat", "Table"]


@functools.cache
def ai_name(lang: str, seat: int) -> str:
    """An AI player's name in ``lang`` (asked for with every message: worth keeping)."""
    return t(lang, "AI {seat}", seat=seat_number(seat))


PLAYER_WORDS = frozenset(t(language, "Player") for language in LANGUAGES)
"""The word for a player in each language: the console's name for its person."""


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
        self.hand: AnyHand | None = None
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
        self.table_chrome: tuple[object, tuple[tuple[Button, ...], ...], str] = ((), (), "")
        """The table message's button and slot for the current hand (they do not change)."""
        self.closings = Closings()
        """This hand's closed tricks or rounds, and how many the group was shown."""
        self.selections: dict[int, Selection] = {}
        self.hints = HintBook()
        """The hints given in the hand being played (`bot.hinting`)."""
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
        self.alone_since: float | None = None
        """Since when no person has been at the table (seated and not gone); None while
        someone is. After ``idle_minutes`` the table closes (`bot.dispatch.tick`)."""
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
        self.buttoned: Outgoing | None = None
        """The group post whose buttons belong to the phase now (the lobby's, a settlement's
        Ready, the pause's Continue): they are taken off when the phase ends
        (`retire_buttons`), so that no button of a past phase stays live. Kept in memory
        only: after a restart there is nothing to take off."""

    # ----------------------------------------------------------------- reading

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
        return Outgoing(Kind.GROUP, self.chat, self.say(key, **values))

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
        stake = Fraction(self.table_options["stake"])
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

    # ----------------------------------------------------------------- who sits here

    def remember(self, command: Command) -> None:
        """A player's name and platform language, when they sit down. Only players are
        remembered, and only then: whatever else anyone types leaves no trace in the table
        (and so in what is stored) unless it is accepted."""
        language = normalize_language(command.lang)
        if language and command.user not in self.player_langs:
            self.player_langs[command.user] = language
        self.names.setdefault(command.user, command.user_name)

    def learn_title(self, command: Command) -> bool:
        """Take the group's name from a command typed there; True when it changed."""
        title = " ".join((command.chat_title or "").split())[:TITLE_LENGTH]
        if command.private or not title or title == self.title:
            return False
        self.title = title
        return True

    def sit(self, index: int, seat: Seat | None) -> None:
        """``seat`` takes place ``index`` (None: the place is freed)."""
        self.seats[index] = seat

    def stand_in(self, index: int, seat: Seat) -> None:
        """An AI player takes the place of the person at ``index`` in the running hand (they
        were removed by /kick): it acts from now on, also when the turn is theirs."""
        self.seats[index] = seat
        self.selections.pop(index, None)
        self.shown.pop(index, None)
        if self.hand is not None and self.turn_seat == index:
            self.start_turn()  # an AI's short wait, not the person's time

    def mark_left(self, index: int) -> None:
        """The player of ``index`` left during the hand: the table plays for them."""
        seat = self.seats[index]
        assert seat is not None
        seat.left = True

    def mark_ready(self, index: int) -> None:
        seat = self.seats[index]
        assert seat is not None
        seat.ready = True
        if seat.user is not None:
            self.carried_auto.discard(seat.user)  # here again: their own player next hand

    def make_host(self, user: str) -> None:
        self.host = user

    def note_presence(self) -> None:
        """Start (or stop) counting the time the table has been without people."""
        if self.has_people():
            self.alone_since = None
        elif self.alone_since is None:
            self.alone_since = self.clock()

    def vote_stop(self, user: str) -> int:
        """``user`` votes to stop the match; returns the votes so far."""
        self.stop_votes.add(user)
        return len(self.stop_votes)

    def set_player_language(self, user: str, lang: str, name: str = "") -> None:
        """``user``'s own language; ``name`` is the name they go by now. A player called by
        the word for a player (the console's: 玩家, Player) takes it, so that the name
        follows the language; any other name stays as they sat down with it."""
        self.player_langs[user] = lang
        if name and self.names.get(user, self._seated_name(user)) in PLAYER_WORDS:
            self.rename(user, name)

    def _seated_name(self, user: str) -> str:
        index = self.seat_of(user)
        seat = None if index is None else self.seats[index]
        return "" if seat is None else seat.name

    def rename(self, user: str, name: str) -> None:
        for index, seat in enumerate(self.seats):
            if seat is not None and seat.user == user and seat.name != name:
                self.seats[index] = replace(seat, name=name)  # a new seat: names are redrawn
        if user in self.names:
            self.names[user] = name

    def set_language(self, lang: str) -> None:
        self.lang = lang

    def set_table_option(self, name: str, value: Any) -> None:
        self.table_options[name] = value
        if name == "ai_level":  # the AI players seated now play at the new level too
            for seat in self.seats:
                if seat is not None and seat.ai:
                    seat.level = value

    def change_rules(self, preset: str, options: dict[str, Any]) -> None:
        """New rules from ``preset`` and ``options``; if the game refuses them
        (`engine.errors.RecordError`) nothing changes."""
        self.rules = self.front.game.rules(preset, **options)
        self.preset, self.options = preset, options

    def hold(self) -> None:
        """Nobody is here to play: the table waits between hands for a person to come back,
        for ``idle_minutes`` at most."""
        self.on_hold = True
        self.reminder_at = None
        self.deadline = self.clock() + 60 * float(self.table_options["idle_minutes"])

    def mark_away(self, user: str) -> None:
        """``user`` was not ready in time: the next hand is dealt with them on 托管."""
        self.carried_auto.add(user)

    def keep_lobby_open(self) -> None:
        """Activity in the lobby: it stays open for ``lobby_timeout`` from now."""
        self.deadline = self.clock() + float(self.table_options["lobby_timeout"])

    def back_to_lobby(self) -> None:
        self.state = LOBBY
        self.keep_lobby_open()

    def close(self) -> None:
        """The match is over: no hand, no timer."""
        self.state = CLOSED
        self.hand = None
        self.deadline = None

    def abandon(self) -> None:
        """The bot can no longer post in this chat: closed, every seat freed."""
        self.close()
        self.seats = [None, None, None, None]

    def move_to(self, chat: str) -> None:
        """The chat got a new id (a Telegram group became a supergroup)."""
        self.chat = chat

    # ----------------------------------------------------------------- the hand

    def deal(self) -> AnyHand:
        """Deal the next hand of the match and start its first turn."""
        self.hand_number += 1
        game = self.front.game
        hand = game.deal(self.rules, seed=self.seeds(self.hand_number), carry=self.carry)
        self.hand = hand
        self.state = PLAYING
        self.stop_votes.clear()
        self.on_hold = False
        self.people_acted = False
        self.alone_since = None  # counted afresh in each hand (`note_presence`)
        if self.hand_number == 1:  # a match begun without people is AI play on purpose
            self.unattended = not self.people()
        for seat in self.seats:
            assert seat is not None
            seat.ready = seat.ai
            seat.left = False
        self.turn_count = 0
        self.selections.clear()
        self.shown.clear()
        self.closings = Closings()
        self.start_turn()
        return hand

    def start_turn(self) -> None:
        """The turn goes to whoever the hand waits on, with their time."""
        assert self.hand is not None
        seat = self.hand.to_act
        self.turn_seat = seat
        now = self.clock()
        self.reminder_at = None
        if seat is None:
            self.deadline = None
        elif self.acts_by_itself(seat) or self.carried_auto:  # their 托管 first: `carry_auto`
            self.deadline = now + float(self.table_options["ai_delay"])
        elif untimed(self.table_options):  # a practice table waits for its person
            self.deadline = None
        else:
            self.deadline = now + float(self.hand.time_limit)
            self._set_reminder()

    def _set_reminder(self) -> None:
        """A person's turn: remind them when a quarter of its time is left."""
        assert self.hand is not None and self.deadline is not None
        self.reminder_at = self.deadline - float(self.hand.time_limit) * REMINDER_AT
        if self.reminder_at <= self.clock():
            self.reminder_at = None  # too late for a reminder to help

    def reminded(self) -> None:
        """The reminder of this turn went out."""
        self.reminder_at = None

    def take_carried_auto(self) -> set[str]:
        """The people to put on 托管 again in this hand (asked once)."""
        carried, self.carried_auto = self.carried_auto, set()
        return carried

    def turn_taken(self, seat: int, by_player: bool) -> None:
        """``seat`` acted (``by_player``: its player did, not the table for them): its chosen
        cards are gone, and the turn moves on (the buttons of the turn that was go stale when
        it did)."""
        self.selections.pop(seat, None)
        if by_player:  # the table's move for someone away does not mean they are looking
            self.acted_at[seat] = self.clock()
            self.people_acted = True
            self.alone_since = None  # someone is here: `note_presence` counts again
        before = self.turn_seat
        self.start_turn()
        if seat == before or self.turn_seat != before:
            self.turn_count += 1

    def close_a_trick(self, event: Any) -> None:
        self.closings.add(event)

    def pick(self, seat: int) -> Selection:
        """The seat's selection, to choose more cards into."""
        return self.selections.setdefault(seat, Selection())

    def clear_selection(self, seat: int) -> None:
        self.selections.pop(seat, None)

    def confirm(self, key: tuple[int, int, int, str]) -> bool:
        """A second press of the same command in the same turn confirms it."""
        if self.confirming == key:
            return True
        self.confirming = key
        return False

    def settle(self, key: str, name: str, amount: Fraction) -> None:
        """A player's amount of the hand joins the match's ledger."""
        self.names[key] = name
        self.ledger[key] = self.ledger.get(key, Fraction(0)) + amount

    def between_hands(self, on_auto: Iterable[str]) -> None:
        """The hand is settled and the match goes on: the players wait to be ready."""
        assert self.hand is not None
        self.carried_auto = set(on_auto)
        self.carry = self.hand.next_carry()
        self.state = BETWEEN
        self.deadline = self.clock() + float(self.table_options["ready_seconds"])
        self.reminder_at = None  # the last turn's: the ready time has no reminder

    def pause(self) -> None:
        self.paused = True
        self.deadline = None

    def unpause(self) -> None:
        self.paused = False
        self.start_turn()

    def set_safe_mode(self, on: bool) -> None:
        self.safe_mode = on

    def resume(self, hand: AnyHand, stopped_at: float) -> None:
        """Put a replayed hand back after a restart: its timer waits on with the time that
        was left when the bot stopped."""
        self.hand = hand
        self.turn_seat = hand.to_act
        if self.deadline is not None:
            self.deadline = self.clock() + max(0.0, self.deadline - stopped_at)
            if self.waits_for_a_person():
                self._set_reminder()

    # ----------------------------------------------------------------- what was shown

    def note_turn_notice(self, key: tuple[int, int, int]) -> bool:
        """Whether the notice of this (hand, turn, seat) is still to be sent; from now on
        it counts as sent."""
        if self.notified == key:
            return False
        self.notified = key
        return True

    def keep_chrome(self, chrome: tuple[object, tuple[tuple[Button, ...], ...], str]) -> None:
        self.table_chrome = chrome

    def note_shown(self, seat: int, shown: tuple[str, Any]) -> bool:
        """Whether this private view differs from the one the seat was last sent; from now
        on it is the one sent."""
        if self.shown.get(seat) == shown:
            return False
        self.shown[seat] = shown
        return True

    def forget_shown(self, seat: int) -> None:
        self.shown.pop(seat, None)

    def with_buttons_of_the_phase(self, post: Outgoing, kind: str) -> Outgoing:
        """``post`` (a group post with buttons) as this phase's: it gets a slot of its own
        (one per match, hand and ``kind``), so that the platform can edit its buttons off
        in place when the phase ends."""
        slotted = replace(post, slot=f"post {self.tag}.{self.hand_number} {kind}")
        self.buttoned = slotted
        return slotted

    def now_with_buttons(self, post: Outgoing) -> None:
        """The phase's post was rewritten before it was sent (a line joined it)."""
        self.buttoned = post

    def retire_buttons(self) -> list[Outgoing]:
        """The post of the phase that ended, as it is, without its buttons (an edit in
        place); nothing if there is none."""
        post, self.buttoned = self.buttoned, None
        return [] if post is None else [replace(post, buttons=())]

    # ----------------------------------------------------------------- storage

    def restore(self, state: str, data: dict[str, Any]) -> None:
        """Put a stored snapshot back into this fresh table (the hand is replayed apart)."""
        self.preset = data["preset"]
        self.options = dict(data["options"])
        self.table_options.update(data["table_options"])
        self.rules = self.front.game.rules(self.preset, **self.options)
        self.host = data["host"]
        self.lang = data["lang"]
        self.state = Phase(state)
        self.seats = [None if s is None else Seat(*s) for s in data["seats"]]
        self.hand_number = data["hand_number"]
        self.carry = _stored_carry(data)
        self.ledger = {user: Fraction(amount) for user, amount in data["ledger"].items()}
        self.names = dict(data["names"])
        self.player_langs = dict(data["player_langs"])
        self.deadline = data["deadline"]
        self.match = data["match"]
        self.turn_count = data.get("turn_count", 0)
        self.title = data.get("title", "")
        self.carried_auto = set(data.get("carried_auto", ()))
        self.alone_since = data.get("alone_since")
        self.people_acted = data.get("people_acted", True)  # stored before: no pause
        self.on_hold = data.get("on_hold", False)
        self.unattended = data.get("unattended", not self.people())
        self.hints.restore(data.get("hints"))


def _stored_carry(data: dict[str, Any]) -> Carry | None:
    if "next_hand" in data:
        return Carry.from_json(data["next_hand"])
    # Snapshots written before the game protocol: the first player and 四团's totals apart.
    first, totals = data.get("first"), data.get("carry")
    if first is None:
        return None
    return Carry(int(first), None if not totals else (int(totals[0]), int(totals[1])))
