"""The protocol every game implements, so that callers never branch on the game.

Like python-chess's ``Board`` and its variants: a `Game` makes rules and deals hands; a `Hand`
says whose decision it waits for (`to_act`), lists what a seat may do (`legal_actions`),
dry-runs what cannot be listed (`check`: a bury of 8 of 33 cards — 6 of 18 with one deck —,
any throw), applies an
action (`apply`, which raises `IllegalAction` and changes nothing, or returns events), and
tells each seat what it may know (`view`).

>>> from engine import game_of
>>> situan = game_of("situan")
>>> hand = situan.deal(situan.rules("nanchang"), seed=7)
>>> events = hand.apply(hand.legal_actions(hand.to_act)[0])
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, Self, TypeVar

from engine.actions import Action
from engine.cards import Card
from engine.events import Event
from engine.results import Result as Result  # re-exported: part of the protocol

ViewT = TypeVar("ViewT")
EventT = TypeVar("EventT", bound=Event)
RulesT = TypeVar("RulesT")
ViewT_co = TypeVar("ViewT_co", covariant=True)
RulesT_co = TypeVar("RulesT_co", covariant=True)


def fresh_seed() -> int:
    """A shuffle seed for a deal nobody fixed."""
    return random.SystemRandom().randrange(2**62)


@dataclass(frozen=True, slots=True)
class Carry:
    """What one hand of a match hands to the next: the seat that starts it (四团: leads —
    the previous 上游; 二七王: bids first) and, in 四团, the team totals of a carried-over
    series (A, B)."""

    first: int
    team_totals: tuple[int, int] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"first": self.first, "team_totals": self.team_totals}

    @staticmethod
    def from_json(raw: Any) -> Carry | None:
        if not isinstance(raw, dict):
            return None
        totals = raw.get("team_totals")
        return Carry(int(raw["first"]), None if totals is None else (totals[0], totals[1]))


class Hand(Protocol[ViewT_co, EventT, RulesT_co]):
    """One hand of a game, from the deal to its result: a game's hand is a
    ``Hand[its view, its events, its rules]`` (四团: ``Hand[SituanView, SituanEvent, Rules]``);
    the host, which knows no game, holds an `AnyHand`."""

    game: str
    history: list[Action]

    @property
    def rules(self) -> RulesT_co:
        """The rules the hand is played by."""

    @property
    def to_act(self) -> int | None:
        """The seat whose decision the hand waits for (None once it is over)."""

    @property
    def over(self) -> bool: ...

    @property
    def result(self) -> Result | None: ...

    @property
    def auto(self) -> Sequence[bool]:
        """Which seats are on 托管."""

    @property
    def time_limit(self) -> int:
        """Seconds the rules give the decision the hand waits for."""

    def cards_of(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds, sorted as players hold them."""

    def legal_actions(self, seat: int) -> Sequence[Action]:
        """Every choice ``seat`` can make now that can be listed; for a seat the hand is not
        waiting for, only what it may do at any time (托管, a 亮牌 start, a 冲关 in its
        window)."""

    def check(self, action: Action) -> None:
        """Raise `IllegalAction` if ``action`` would be refused; change nothing."""

    def apply(self, action: Action) -> list[EventT]:
        """Apply ``action`` and return its events, or raise `IllegalAction` unchanged."""

    def view(self, seat: int | None) -> ViewT_co:
        """What ``seat`` may know (None: the public view)."""

    def fork(self) -> Self:
        """A copy in the same state that plays on without touching this hand: it lists,
        checks and applies as the hand does. `copy.copy` and `copy.deepcopy` of a hand are
        its fork; a pickled hand loads as one."""

    def next_carry(self) -> Carry:
        """What the next hand of the match starts from (the hand must be over)."""

    @property
    def match_goes_on(self) -> bool:
        """Whether this finished hand leaves a part of the match undecided, so that the match
        plays on past its last hand (四团: a carried-over series, which pays once, when
        decided; 二七王: never)."""

    def start_record(self) -> dict[str, Any]:
        """The hand record without its actions: rules, deal, first, carry."""


class Player(Protocol):
    """An AI player: it sees one seat's view and chooses among the engine's legal actions
    (or, for what the engine cannot list — a bury — builds one that passes `check`)."""

    def decide(self, view: Any, legal: Sequence[Action]) -> Action: ...


class Game(Protocol[ViewT_co, EventT, RulesT]):
    """A game: its presets, its rules, its deal and its AI players; the hands it deals are
    ``Hand[ViewT_co, EventT, RulesT]``."""

    name: str
    default_preset: str

    @property
    def presets(self) -> tuple[str, ...]: ...

    def rules(self, preset: str | None = None, **options: Any) -> RulesT:
        """Rules from a preset and option overrides; bad ones raise ``RecordError``."""

    def deal(
        self,
        rules: RulesT,
        seed: int | str | None = None,
        deal: Any = None,
        carry: Carry | None = None,
    ) -> Hand[ViewT_co, EventT, RulesT]:
        """A new hand: dealt from ``seed`` (or the given ``deal``), continuing a match from
        ``carry`` (None: the match's first hand)."""

    def hand_from_record(self, record: dict[str, Any]) -> Hand[ViewT_co, EventT, RulesT]:
        """The hand a record starts from, before its actions."""

    def action_from_json(self, raw: Any) -> Action:
        """An action of this game from its record form; `RecordError` when it is not one
        (``bad_action``) or names an unknown card (``unknown_card``)."""

    def replay(self, record: dict[str, Any], actions: list[Any]) -> dict[str, Any]:
        """``python -m engine replay``'s output for this game's record."""

    def ai_player(self, level: str, seed: int | None = None, **search: Any) -> Player:
        """The AI player of ``level`` (``easy``, ``normal`` or ``hard``, see `engine.ai`)."""


AnyHand = Hand[Any, Any, Any]
"""A hand of any game, as the host holds it."""

AnyGame = Game[Any, Any, Any]
"""A game, whichever it is, as the host and the registry of games hold it."""
