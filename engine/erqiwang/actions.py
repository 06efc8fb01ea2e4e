"""二七王 actions and events.

Events are plain slotted dataclasses (not frozen: they are built on every action, and a
frozen dataclass pays for ``object.__setattr__``); nothing changes them after they are made.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card


class Action:
    """One thing a seat does: ``bid`` (points), ``pass``, ``trump`` (suit: S H C D or none),
    ``bury`` (8 cards), ``surrender``, ``declare_bonus``, ``play`` (cards), ``auto`` (on),
    ``timeout``."""

    __slots__ = ("act", "cards", "on", "points", "seat", "suit")

    def __init__(
        self,
        seat: int,
        act: str,
        *,
        cards: tuple[Card, ...] | None = None,
        points: object = None,
        suit: object = None,
        on: object = None,
    ) -> None:
        self.seat = seat
        self.act = act
        self.cards = cards
        self.points = points
        self.suit = suit
        self.on = on

    def __repr__(self) -> str:
        extra = ""
        if self.cards is not None:
            extra = " " + " ".join(c.text for c in self.cards)
        elif self.points is not None:
            extra = f" {self.points}"
        elif self.suit is not None:
            extra = f" {self.suit}"
        elif self.on is not None:
            extra = f" on={self.on}"
        return f"<Action seat={self.seat} {self.act}{extra}>"


@dataclass(slots=True)
class Bid:
    seat: int
    points: int


@dataclass(slots=True)
class BidPassed:
    seat: int


@dataclass(slots=True)
class Redeal:
    """Everyone passed: the hand is void and is dealt again with the same first bidder."""


@dataclass(slots=True)
class DeclarerChosen:
    seat: int
    bid: int


@dataclass(slots=True)
class BottomShown:
    """亮底牌: the declarer takes the 8 bottom cards, shown to everyone."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(slots=True)
class TrumpNamed:
    suit: str | None


@dataclass(slots=True)
class Buried:
    """扣底: 8 cards face down (the cards themselves only in the declarer's view)."""

    seat: int


@dataclass(slots=True)
class Surrendered:
    seat: int


@dataclass(slots=True)
class BonusDeclared:
    """叫冲关: the qualifying cards are shown to the table."""

    seat: int
    name: str
    value: int
    cards: tuple[Card, ...]


@dataclass(slots=True)
class Played:
    seat: int
    cards: tuple[Card, ...]


@dataclass(slots=True)
class TrickWon:
    seat: int
    points: int
    by_defenders: bool


@dataclass(slots=True)
class TrumpVoid:
    """无主: a player holds no trump any more."""

    seat: int


@dataclass(slots=True)
class TrumpCounts:
    """With two players void of trump, the others' trump count and whether they hold a pair."""

    counts: tuple[tuple[int, int, bool], ...]


@dataclass(slots=True)
class TimedOut:
    seat: int
    count: int


@dataclass(slots=True)
class AutoChanged:
    seat: int
    on: bool


@dataclass(slots=True)
class HandEnded:
    result: dict[str, object]


Event = (
    Bid | BidPassed | Redeal | DeclarerChosen | BottomShown | TrumpNamed | Buried | Surrendered
    | BonusDeclared | Played | TrickWon | TrumpVoid | TrumpCounts | TimedOut | AutoChanged
    | HandEnded
)  # fmt: skip
