"""One table in one chat: its state, and the only code that changes it.

A `Table` is pure state with an injected clock. Its fields are read by the modules above it
(the lobby's and the hand's command handlers, `bot.commands.steps`, the views); they change only
through its own methods, which are named after what happens at a table (`sit`, `deal`,
`turn_taken`, `close`…). It imports none of the modules that use it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from fractions import Fraction
from typing import Any

from bot.i18n import normalize_language
from bot.reading.command import Command
from bot.reading.table_options import TableOptions
from bot.table.closings import Closings
from bot.table.seats import Seat
from bot.table.table_fields import (
    BETWEEN,
    CLOSED,
    LOBBY,
    ONLY_HOST,
    PLAYER_WORDS,
    PLAYING,
    REMINDER_AT,
    TITLE_LENGTH,
    TableFields,
    ai_name,
)
from bot.table.table_phases import Phase
from bot.views.controls import Selection
from bot.views.outgoing import Outgoing
from engine.game import AnyHand, Carry

__all__ = [
    "BETWEEN",
    "CLOSED",
    "LOBBY",
    "ONLY_HOST",
    "PLAYING",
    "Phase",
    "Seat",
    "Table",
    "ai_name",
]


class Table(TableFields):
    """One table in one chat (its fields: `TableFields`); every change is a method here."""

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
        self.sent.forget_shown(index)
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

    def set_table_options(self, options: TableOptions) -> None:
        level_changed = options.ai_level != self.table_options.ai_level
        self.table_options = options
        if level_changed:  # the AI players seated now play at the new level too
            for seat in self.seats:
                if seat is not None and seat.ai:
                    seat.level = options.ai_level

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
        self.deadline = self.clock() + 60 * self.table_options.idle_minutes

    def mark_away(self, user: str) -> None:
        """``user`` was not ready in time: the next hand is dealt with them on 托管."""
        self.carried_auto.add(user)

    def keep_lobby_open(self) -> None:
        """Activity in the lobby: it stays open for ``lobby_timeout`` from now."""
        self.deadline = self.clock() + self.table_options.lobby_timeout

    def back_to_lobby(self) -> None:
        self.state = LOBBY
        self.keep_lobby_open()

    def close(self) -> None:
        """The match is over: no hand, no timer (a hand played to its end is kept as
        `last_hand`; a hand stopped midway has no settlement to keep)."""
        self.state = CLOSED
        self.last_hand = self.hand if self.hand is not None and self.hand.over else None
        self.hand = None
        self.deadline = None

    def recall_last_hand(self, hand: AnyHand) -> None:
        """A closed table read back from storage gets the hand its match ended with,
        replayed from its record."""
        self.last_hand = hand if self.state == CLOSED and hand.over else None

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
        self.sent.forget_every_view()
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
            self.deadline = now + self.table_options.ai_delay
        elif self.table_options.untimed:  # a practice table waits for its person
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
        self.deadline = self.clock() + self.table_options.ready_seconds
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

    def with_buttons_of_the_phase(self, post: Outgoing, kind: str) -> Outgoing:
        """``post`` (a group post with buttons) as this phase's, in its own slot (one per
        match, hand and ``kind``): its buttons are edited off when the phase ends."""
        return self.sent.with_buttons_of_the_phase(
            post, f"post {self.tag}.{self.hand_number} {kind}"
        )

    # ----------------------------------------------------------------- storage

    def restore(self, state: str, data: dict[str, Any]) -> None:
        """Put a stored snapshot back into this fresh table (the hand is replayed apart)."""
        self.preset = data["preset"]
        self.options = dict(data["options"])
        self.table_options = TableOptions.from_json(data["table_options"])
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
