"""One table in one chat: lobby, seats, the running hand, timers, 托管 and the match ledger.

A table is pure logic with an injected clock: `handle` (a command) and `tick` (time passing)
return `Effects` — what to store, then what to send. The manager stores first and sends after,
so nothing a player saw as accepted can be lost.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from bot.commands import Command
from bot.controls import Selection, Stamp, hand_buttons, held_tokens, pick, selection_text
from bot.games import DRIVERS, BadInput, Hand, settlement
from bot.i18n import LANGUAGES, N_, normalize_language, t
from bot.outgoing import Button, Outgoing
from bot.render import (
    cards_text,
    erqiwang_holding,
    erqiwang_table,
    ledger_text,
    refusal_text,
    settlement_text,
    situan_holding,
    situan_table,
)
from engine.errors import IllegalAction, RecordError

LOBBY, PLAYING, BETWEEN, CLOSED = "lobby", "playing", "between", "closed"
TABLE_OPTIONS = {
    "stake": "1",
    "ai_delay": 1.0,
    "ready_seconds": 60,
    "fill_with_ai": True,
    "max_hands": 0,
    "lobby_timeout": 600,
}
"""Table settings beside the game's rules; ``max_hands`` 0 plays on until /stop."""
TIMEOUT_NOTICE_LIMIT = 3
MATCH_WIDE = frozenset({"join", "addbot", "start", "hand"})
"""Buttons that mean the same in any hand of the match (the lobby post's, "My hand"): their
stamp need only name this match."""


@dataclass
class Seat:
    user: str | None
    """The player's id; None for an AI player."""
    name: str
    ready: bool = False
    left: bool = False

    @property
    def ai(self) -> bool:
        return self.user is None


@dataclass
class Effects:
    """What a step of the table asks for, in order: store, then send."""

    out: list[Outgoing] = field(default_factory=list)
    hand_started: dict[str, Any] | None = None
    actions: list[dict[str, Any]] = field(default_factory=list)
    hand_finished: tuple[dict[str, Any], list[tuple[str, str, str, bool, str]]] | None = None
    table_changed: bool = False

    def extend(self, other: Effects) -> None:
        self.out += other.out
        self.hand_started = self.hand_started or other.hand_started
        self.actions += other.actions
        self.hand_finished = self.hand_finished or other.hand_finished
        self.table_changed = self.table_changed or other.table_changed


class Table:
    def __init__(
        self, chat: str, game: str, preset: str, host: str, lang: str,
        clock: Callable[[], float], seeds: Callable[[int], int] | None = None,
    ) -> None:  # fmt: skip
        self.chat = chat
        self.game = game
        self.driver = DRIVERS[game]
        self.preset = preset
        self.options: dict[str, Any] = {}
        self.table_options: dict[str, Any] = dict(TABLE_OPTIONS)
        self.rules = self.driver.rules(preset, {})
        self.host = host
        self.lang = lang
        self.clock = clock
        self.seeds = seeds or (lambda number: random.SystemRandom().randrange(2**62))
        """The shuffle seed of hand ``number`` (random unless a test or demo fixes it)."""
        self.state = LOBBY
        self.seats: list[Seat | None] = [None, None, None, None]
        self.hand: Hand | None = None
        self.hand_number = 0
        self.first: int | None = None
        self.carry: Any = None
        self.ledger: dict[str, Fraction] = {}
        self.names: dict[str, str] = {}
        self.player_langs: dict[str, str] = {}
        self.turn_seat: int | None = None
        self.deadline: float | None = None
        self.stop_votes: set[str] = set()
        self.match = f"{clock():.6f}"
        """This match's id: a new /new in the same chat starts a new match."""
        self.turn_count = 0
        """Turns taken in this hand: buttons for an action carry it and go stale after."""
        self._tag = ("", "")
        self._table_chrome: tuple[Any, ...] = ((), (), "")
        """The table message's button and slot for the current hand (they do not change)."""
        self.selections: dict[int, Selection] = {}
        """Cards chosen by button, not yet played (kept in memory only)."""

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

    def seat_names(self) -> list[str]:
        return [seat.name if seat else "—" for seat in self.seats]

    def lang_of(self, user: str | None) -> str:
        return self.player_langs.get(user or "", self.lang)

    def reply(self, command: Command, key: str, **values: object) -> Effects:
        text = t(self.lang_of(command.user), key, **values)
        return Effects(out=[Outgoing("reply", self.chat, text, user=command.user)])

    def group(self, key: str, **values: object) -> Outgoing:
        return Outgoing("group", self.chat, self.say(key, **values))

    # ----------------------------------------------------------------- commands

    def handle(self, command: Command) -> Effects:
        language = normalize_language(command.lang)
        if language and command.user not in self.player_langs:
            self.player_langs[command.user] = language
        self.names.setdefault(command.user, command.user_name)
        handler = getattr(self, f"_cmd_{command.name}", None)
        if handler is None:
            return self.reply(command, "Unknown command. Try /help.")
        stale = None if command.stamp is None else self._stale(command.stamp, command.name)
        if stale is not None:
            return self.reply(command, stale)
        try:
            effects: Effects = handler(command)
        except BadInput as bad:
            return self.reply(command, bad.key, **bad.values)
        if self.state == LOBBY:  # activity keeps a lobby open
            self.deadline = self.clock() + float(self.table_options["lobby_timeout"])
        return effects

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

    def _host_only(self, command: Command) -> Effects | None:
        if command.user != self.host:
            return self.reply(command, "Only the host can do that.")
        return None

    def _cmd_join(self, command: Command) -> Effects:
        if self.state not in (LOBBY, BETWEEN):
            return self.reply(command, "A hand is running; join when it is over.")
        if self.seat_of(command.user) is not None:
            return self.reply(command, "You already have a seat.")
        wanted = self._seat_argument(command)
        free = [i for i, seat in enumerate(self.seats) if seat is None]
        if wanted is not None:
            if wanted not in free:
                return self.reply(command, "Seat {seat} is taken.", seat=wanted)
            index = wanted
        elif free:
            index = free[0]
        else:
            return self.reply(command, "The table is full.")
        self.seats[index] = Seat(command.user, command.user_name, ready=True)
        effects = Effects(
            out=[self.group("{name} sits at seat {seat}.", name=command.user_name, seat=index)],
            table_changed=True,
        )
        return effects

    def _seat_argument(self, command: Command) -> int | None:
        if not command.args:
            return None
        if not command.args[0].isdigit() or not 0 <= int(command.args[0]) < 4:
            raise BadInput("Seats are numbered 0 to 3.")
        return int(command.args[0])

    def _cmd_leave(self, command: Command) -> Effects:
        index = self.seat_of(command.user)
        if index is None:
            return self.reply(command, "You have no seat at this table.")
        seat = self.seats[index]
        assert seat is not None
        if self.state == PLAYING and self.hand is not None:
            seat.left = True
            effects = self._apply(self.driver.auto_mark(index, True))
            effects.out.append(
                self.group(
                    "{name} left; the table plays for them until the hand is over.", name=seat.name
                )
            )
            effects.table_changed = True
            return effects
        self.seats[index] = None
        return Effects(
            out=[self.group("{name} left the table.", name=seat.name)], table_changed=True
        )

    def _cmd_addbot(self, command: Command) -> Effects:
        if (refused := self._host_only(command)) is not None:
            return refused
        if self.state not in (LOBBY, BETWEEN):
            return self.reply(command, "Seats change only between hands.")
        free = [i for i, seat in enumerate(self.seats) if seat is None]
        if not free:
            return self.reply(command, "The table is full.")
        index = free[0]
        self.seats[index] = Seat(None, self.say("AI {seat}", seat=index), ready=True)
        return Effects(
            out=[self.group("An AI player sits at seat {seat}.", seat=index)], table_changed=True
        )

    def _cmd_kick(self, command: Command) -> Effects:
        if (refused := self._host_only(command)) is not None:
            return refused
        if self.state not in (LOBBY, BETWEEN):
            return self.reply(command, "Seats change only between hands.")
        index = self._seat_argument(command)
        if index is None or self.seats[index] is None:
            return self.reply(command, "That seat is empty.")
        seat = self.seats[index]
        assert seat is not None
        self.seats[index] = None
        return Effects(
            out=[self.group("{name} was removed from seat {seat}.", name=seat.name, seat=index)],
            table_changed=True,
        )

    def _cmd_start(self, command: Command) -> Effects:
        if (refused := self._host_only(command)) is not None:
            return refused
        if self.state != LOBBY:
            return self.reply(command, "The match has already started.")
        if any(seat is None for seat in self.seats):
            return self.reply(command, "All four seats must be taken (use /addbot).")
        return self._deal()

    def _cmd_ready(self, command: Command) -> Effects:
        index = self.seat_of(command.user)
        if index is None or self.state != BETWEEN:
            return self.reply(command, "Nothing to get ready for now.")
        seat = self.seats[index]
        assert seat is not None
        seat.ready = True
        if all(s is not None and s.ready for s in self.seats):
            return self._deal()
        return Effects(out=[self.group("{name} is ready.", name=seat.name)], table_changed=True)

    def _cmd_next(self, command: Command) -> Effects:
        if (refused := self._host_only(command)) is not None:
            return refused
        if self.state != BETWEEN:
            return self.reply(command, "Nothing to get ready for now.")
        if any(seat is None for seat in self.seats):
            return self.reply(command, "All four seats must be taken (use /addbot).")
        return self._deal()

    def _cmd_stop(self, command: Command) -> Effects:
        if command.user != self.host:
            if self.seat_of(command.user) is None:
                return self.reply(command, "Only the host can do that.")
            self.stop_votes.add(command.user)
            if len(self.stop_votes) < 3:
                return Effects(
                    out=[
                        self.group(
                            "{count} of 3 votes to stop the match.", count=len(self.stop_votes)
                        )
                    ]
                )
        return self.close()

    def close(self) -> Effects:
        self.state = CLOSED
        self.hand = None
        self.deadline = None
        text = (
            self.say("The match is over.") + "\n" + ledger_text(self.lang, self.ledger, self.names)
        )
        return Effects(out=[Outgoing("group", self.chat, text)], table_changed=True)

    def _cmd_score(self, command: Command) -> Effects:
        return Effects(
            out=[Outgoing("group", self.chat, ledger_text(self.lang, self.ledger, self.names))]
        )

    def _cmd_lang(self, command: Command) -> Effects:
        wanted = normalize_language(command.args[0]) if command.args else None
        if wanted is None:
            return self.reply(command, "Languages: {languages}", languages=", ".join(LANGUAGES))
        if command.private:
            self.player_langs[command.user] = wanted
        else:
            self.lang = wanted
        return Effects(
            out=[Outgoing("reply", self.chat, t(wanted, "Language set."), user=command.user)],
            table_changed=True,
        )

    def _cmd_settings(self, command: Command) -> Effects:
        if not command.args:
            options = {"preset": self.preset, **self.rules.options(), **self.table_options}
            lang = self.lang_of(command.user)
            lines = [
                t(lang, "Settings (the host changes them in the lobby: /settings NAME VALUE):")
            ]
            lines += [f"{name} = {value}" for name, value in options.items()]
            return Effects(out=[Outgoing("reply", self.chat, "\n".join(lines), user=command.user)])
        if (refused := self._host_only(command)) is not None:
            return refused
        if self.state != LOBBY:
            return self.reply(command, "Settings change only in the lobby.")
        if len(command.args) != 2:
            return self.reply(command, "Say /settings NAME VALUE.")
        name, value = command.args
        return self._change_setting(command, name, value)

    _cmd_set = _cmd_settings

    def _change_setting(self, command: Command, name: str, value: str) -> Effects:
        if name in TABLE_OPTIONS:
            try:
                kind = type(TABLE_OPTIONS[name])
                if kind is bool:
                    parsed: Any = value.lower() in ("on", "true", "yes", "1")
                elif name == "stake":
                    parsed = str(Fraction(value))
                else:
                    parsed = kind(value)
            except (ValueError, ZeroDivisionError):
                return self.reply(command, "Bad value {value} for {name}.", value=value, name=name)
            self.table_options[name] = parsed
        else:
            preset, options = self.preset, dict(self.options)
            if name == "preset":
                preset, options = value, {}
            else:
                options[name] = value
            try:
                self.rules = self.driver.rules(preset, options)
            except RecordError:
                return self.reply(command, "Bad value {value} for {name}.", value=value, name=name)
            self.preset, self.options = preset, options
        return Effects(
            out=[self.group("{name} is now {value}.", name=name, value=value)], table_changed=True
        )

    def _cmd_rules(self, command: Command) -> Effects:
        key = N_("rules_situan") if self.game == "situan" else N_("rules_erqiwang")
        return Effects(
            out=[
                Outgoing("reply", self.chat, t(self.lang_of(command.user), key), user=command.user)
            ]
        )

    def _cmd_help(self, command: Command) -> Effects:
        return Effects(
            out=[
                Outgoing(
                    "reply",
                    self.chat,
                    t(self.lang_of(command.user), N_("help_text")),
                    user=command.user,
                )
            ]
        )

    def _cmd_hand(self, command: Command) -> Effects:
        index = self.seat_of(command.user)
        if index is None or self.hand is None:
            return self.reply(command, "You have no cards in play.")
        return Effects(out=[self._private_hand(index)])

    def _cmd_auto(self, command: Command) -> Effects:
        index = self._playing_seat(command)
        on = (command.args[0].lower() if command.args else "on") in ("on", "1", "true")
        effects = self._apply(self.driver.auto_mark(index, on))
        return effects

    def _playing_seat(self, command: Command) -> int:
        index = self.seat_of(command.user)
        if index is None:
            raise BadInput("You have no seat at this table.")
        if self.state != PLAYING or self.hand is None:
            raise BadInput("No hand is being played.")
        return index

    def _game_command(self, command: Command) -> Effects:
        index = self._playing_seat(command)
        assert self.hand is not None
        action = self.driver.command_action(self.hand, index, command.name, command.args)
        return self._apply(action, command)

    _cmd_play = _cmd_pass = _cmd_bid = _cmd_trump = _cmd_bury = _game_command

    def _cmd_pick(self, command: Command) -> Effects:
        index = self._playing_seat(command)
        assert self.hand is not None
        selection = self.selections.setdefault(index, Selection())
        held = held_tokens(self.hand, index)
        try:
            pick(selection, command.args, held, by_rank=self.game == "situan")
        except ValueError:
            raise BadInput("You do not hold those cards.") from None
        return Effects(out=[self._private_hand(index)])

    def _cmd_clear(self, command: Command) -> Effects:
        index = self._playing_seat(command)
        self.selections.pop(index, None)
        return Effects(out=[self._private_hand(index)])

    def _cmd_go(self, command: Command) -> Effects:
        """Play (or, while burying, bury) the cards chosen by button."""
        index = self._playing_seat(command)
        assert self.hand is not None
        selection = self.selections.get(index)
        if selection is None or not selection.size():
            raise BadInput("Choose cards first.")
        verb = "bury" if getattr(self.hand, "phase", "") == "bury" else "play"
        action = self.driver.command_action(self.hand, index, verb, selection.tokens())
        return self._apply(action, command)

    _cmd_surrender = _cmd_bonus = _cmd_show = _cmd_reveal = _game_command

    # ----------------------------------------------------------------- the hand

    def _deal(self) -> Effects:
        self.hand_number += 1
        self.hand = self.driver.new_hand(
            self.rules, self.seeds(self.hand_number), self.first, self.carry
        )
        self.state = PLAYING
        self.stop_votes.clear()
        for seat in self.seats:
            assert seat is not None
            seat.ready = seat.ai
            seat.left = False
        effects = Effects(hand_started=self.driver.start_record(self.hand), table_changed=True)
        effects.out.append(self.group("Hand {number} is dealt.", number=self.hand_number))
        self.turn_count = 0
        self.selections.clear()
        self._start_turn()
        effects.out += self._private_hands(range(4))
        effects.out.append(self._table_message())
        return effects

    def _start_turn(self) -> None:
        assert self.hand is not None
        seat = self.driver.to_act(self.hand)
        self.turn_seat = seat
        now = self.clock()
        if seat is None:
            self.deadline = None
        elif self._acts_by_itself(seat):
            self.deadline = now + float(self.table_options["ai_delay"])
        else:
            self.deadline = now + self._turn_seconds()

    def _turn_seconds(self) -> float:
        rules = self.rules
        if self.game == "erqiwang" and getattr(self.hand, "phase", "") == "bury":
            return float(rules.bury_seconds)
        return float(rules.turn_seconds)

    def _acts_by_itself(self, seat: int) -> bool:
        """AI seats, seats on 托管 and players who left are played by the table."""
        occupant = self.seats[seat]
        assert self.hand is not None
        return occupant is None or occupant.ai or occupant.left or bool(self.hand.auto[seat])

    def _apply(self, action: Any, command: Command | None = None) -> Effects:
        assert self.hand is not None
        try:
            events = self.hand.apply(action)
        except IllegalAction as refusal:
            if command is None:
                raise
            lang = self.lang_of(command.user)
            text = refusal_text(lang, refusal.code, refusal.facts, refusal_key(refusal))
            return Effects(out=[Outgoing("reply", self.chat, text, user=command.user)])
        effects = Effects(actions=[self.driver.action_to_json(action)])
        effects.extend(self._after_action(action, events))
        return effects

    def _after_action(self, action: Any, events: list[Any]) -> Effects:
        assert self.hand is not None
        effects = Effects()
        names = self.seat_names()
        for event in events:
            kind = type(event).__name__
            if kind == "TimedOut":
                effects.out.append(
                    self.group(
                        "{name} timed out ({count} times).",
                        name=names[event.seat],
                        count=event.count,
                    )
                )
            elif kind == "WentOut":
                place = {1: N_("上游"), 2: N_("2游"), 3: N_("3游")}.get(event.place)
                if place:
                    effects.out.append(
                        self.group(
                            "{name} is out: {place}.", name=names[event.seat], place=self.say(place)
                        )
                    )
            elif kind == "BonusDeclared":
                effects.out.append(
                    self.group(
                        "{name} declares {bonus} ({value}).",
                        name=names[event.seat],
                        bonus=event.name,
                        value=event.value,
                    )
                )
            elif kind == "BottomShown":
                effects.out.append(
                    self.group(
                        "{name} takes the bottom: {cards}",
                        name=names[event.seat],
                        cards=cards_text(self.lang, event.cards),
                    )
                )
            elif kind == "HandRevealed":
                effects.out.append(
                    self.group("{name}'s hand is shown to the table.", name=names[event.seat])
                )
            elif kind == "HandEnded":
                effects.extend(self._end_hand(event.result))
                return effects
        changed = {action.seat}  # whose hand changed: the actor's, and those events name
        for event in events:
            if type(event).__name__ == "ShowStarted":
                changed |= {event.by, event.partner}
            elif type(event).__name__ == "BottomShown":
                changed.add(event.seat)
        self.selections.pop(action.seat, None)
        before = self.turn_seat
        self._start_turn()
        if action.seat == before or self.turn_seat != before:
            self.turn_count += 1  # the turn moved on: its buttons go stale
            if self.turn_seat is not None:
                changed.add(self.turn_seat)  # its buttons now carry the new turn
        effects.out += self._private_hands(changed)
        effects.out.append(self._table_message())
        return effects

    def _end_hand(self, result: dict[str, Any]) -> Effects:
        names = self.seat_names()
        totals = [x * Fraction(self.table_options["stake"]) for x in settlement(result)]
        ledger_lines: list[tuple[str, str, str, bool, str]] = []
        first_out = result.get("finish", [None])[0] if self.game == "situan" else None
        for index, seat in enumerate(self.seats):
            assert seat is not None
            key = seat.user or f"ai:{index}"
            self.names[key] = seat.name
            self.ledger[key] = self.ledger.get(key, Fraction(0)) + totals[index]
            bonus = result.get("bonus", ["0"] * 4)[index]
            ledger_lines.append((key, seat.name, str(totals[index]), first_out == index, bonus))
        running = [self.ledger[s.user or f"ai:{i}"] for i, s in enumerate(self.seats) if s]
        effects = Effects(table_changed=True)
        effects.out += self._private_hands(range(4))  # the final view: its buttons are gone
        if self.driver.is_redeal(result):
            effects.out.append(self.group("Everyone passed: the cards are dealt again."))
        else:
            ready = Button(self.say("Ready"), "/ready", self.stamp().text())
            effects.out.append(
                Outgoing(
                    "group",
                    self.chat,
                    settlement_text(self.lang, self.game, result, names, totals, running),
                    buttons=((ready,),),
                )
            )
        effects.hand_finished = (result, ledger_lines)
        limit = int(self.table_options["max_hands"])
        if limit and self.hand_number >= limit and not self.driver.is_redeal(result):
            effects.extend(self.close())
            return effects
        first, carry = self.driver.next_hand(result, self.first or 0)
        self.first, self.carry = first, carry
        self.state = BETWEEN
        self.deadline = self.clock() + float(self.table_options["ready_seconds"])
        if self.driver.is_redeal(result) or all(s is not None and s.ai for s in self.seats):
            effects.extend(self._deal())
        return effects

    # ----------------------------------------------------------------- time

    def tick(self) -> Effects:
        """Act for whoever's time is up: AI seats, 托管, time-outs, the ready timer."""
        now = self.clock()
        if self.deadline is None or now < self.deadline:
            return Effects()
        if self.state == LOBBY:
            effects = Effects(out=[self.group("The lobby was idle too long and closes.")])
            effects.extend(self.close())
            return effects
        if self.state == BETWEEN:
            return self._ready_timeout()
        if self.state != PLAYING or self.hand is None or self.turn_seat is None:
            return Effects()
        seat = self.turn_seat
        occupant = self.seats[seat]
        if occupant is not None and occupant.ai:
            action = self.driver.ai_action(self.hand, seat)
        else:
            action = self.driver.timeout(seat)
        return self._apply(action)

    def _ready_timeout(self) -> Effects:
        effects = Effects(table_changed=True)
        for index, seat in enumerate(self.seats):
            if seat is not None and not seat.ready:
                effects.out.append(
                    self.group("{name} was not ready and leaves the table.", name=seat.name)
                )
                fill = self.table_options["fill_with_ai"]
                self.seats[index] = (
                    Seat(None, self.say("AI {seat}", seat=index), True) if fill else None
                )
        if all(seat is not None for seat in self.seats):
            effects.extend(self._deal())
        else:
            self.state = LOBBY
            self.deadline = self.clock() + float(self.table_options["lobby_timeout"])
        return effects

    def seconds_left(self) -> int | None:
        if self.deadline is None or self.turn_seat is None:
            return None
        return max(0, round(self.deadline - self.clock()))

    # ----------------------------------------------------------------- renders

    def _table_message(self) -> Outgoing:
        """The table message of the running hand, written when it is sent (see
        `Outgoing.render`), from the public view only."""
        hand = self.hand
        assert hand is not None
        number = self.hand_number
        render = situan_table if self.game == "situan" else erqiwang_table

        def write() -> str:
            left = self.seconds_left() if hand is self.hand else None
            return render(self.lang, hand.view(None), self.seat_names(), number, left)  # type: ignore[arg-type]

        chrome = self._table_chrome
        if chrome[0] != (self.tag, number, self.lang):  # made once per hand (and language)
            stamp = self.stamp().text()
            my_hand = Button(self.say("My hand"), "/hand", stamp)
            chrome = self._table_chrome = (
                (self.tag, number, self.lang),
                ((my_hand,),),
                f"table {stamp}",
            )
        _, buttons, slot = chrome
        return Outgoing("table", self.chat, "", buttons=buttons, slot=slot, render=write)

    def _private_hands(self, seats: Any) -> list[Outgoing]:
        """Fresh private hand views for these seats (AI seats get none)."""
        return [self._private_hand(i) for i in sorted(seats) if (s := self.seats[i]) and not s.ai]

    def _private_hand(self, index: int) -> Outgoing:
        assert self.hand is not None
        seat = self.seats[index]
        assert seat is not None and seat.user is not None
        lang = self.lang_of(seat.user)
        view = self.hand.view(index)
        if self.game == "situan":
            holding = situan_holding(lang, view.hand)
            extra = ""
            for partner, cards in getattr(view, "show_seen", {}).items():
                extra = "\n" + t(
                    lang,
                    "Your partner {name} holds: {cards}",
                    name=self.seat_names()[partner],
                    cards=situan_holding(lang, cards),
                )
        else:
            holding = erqiwang_holding(lang, view)  # type: ignore[arg-type]
            extra = ""
        text = t(lang, "Your hand ({game}, seat {seat}): {cards}", game=t(lang, self.game),
                 seat=index, cards=holding) + extra  # fmt: skip
        selection = self.selections.get(index, Selection())
        if chosen := selection_text(lang, self.hand, selection):
            text += "\n" + chosen
        if self.turn_seat == index and not self.hand.over:
            text += "\n" + t(lang, "Your turn.")
        buttons = hand_buttons(
            lang, self.hand, index, selection, self.stamp(), self.stamp(turn=True)
        )
        slot = f"hand {self.stamp().text()}"
        return Outgoing("private", self.chat, text, user=seat.user, buttons=buttons, slot=slot)


def lobby_buttons(table: Table) -> tuple[Button, ...]:
    """Join, an AI player, start: the lobby's buttons (a press is the same text command)."""
    stamp = table.stamp().text()
    return (
        Button(table.say("Join"), "/join", stamp),
        Button(table.say("Add AI"), "/addbot", stamp),
        Button(table.say("Start"), "/start", stamp),
    )


def refusal_key(refusal: IllegalAction) -> str:
    """The message id for a rule's refusal: one sentence per error code."""
    return REFUSALS.get(refusal.code, N_("That is not allowed now."))


REFUSALS = {
    "wrong_phase": N_("That is not possible at this point of the hand."),
    "not_your_turn": N_("It is not your turn."),
    "not_in_hand": N_("You do not hold those cards."),
    "not_a_combination": N_("Those cards are not a combination you can play."),
    "cannot_beat": N_("That does not beat the last play."),
    "must_lead": N_("You lead this round: play something."),
    "wrong_count": N_("Play as many cards as the lead (bury exactly 8)."),
    "must_follow_suit": N_("You must follow the suit that was led."),
    "must_follow_shape": N_("You must follow the lead's pairs and tractors as far as you can."),
    "throw_not_allowed": N_("That throw is not allowed."),
    "bid_not_allowed": N_("That bid is not allowed."),
    "surrender_not_allowed": N_("You may not surrender with this bid."),
    "no_bonus": N_("You have no 冲关 to declare."),
    "show_not_allowed": N_("A show is not possible now."),
    "bad_action": N_("That is not a valid action."),
}
