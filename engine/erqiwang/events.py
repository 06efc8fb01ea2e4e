"""二七王 events: what an accepted action changed, for the table to narrate.

The table's own events (time-outs, 托管, the end) are `engine.events`' and re-exported here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.cards import Card
from engine.events import AutoChanged, HandEnded, TimedOut

__all__ = [
    "AutoChanged",
    "BidMade",
    "BidPassed",
    "BonusDeclared",
    "BottomShown",
    "Buried",
    "DeclarerChosen",
    "Event",
    "HandEnded",
    "Played",
    "Redeal",
    "Surrendered",
    "TimedOut",
    "TrickWon",
    "TrumpCounts",
    "TrumpNamed",
    "TrumpVoid",
]


@dataclass(frozen=True, slots=True)
class BidMade:
    seat: int
    points: int


@dataclass(frozen=True, slots=True)
class BidPassed:
    seat: int


@dataclass(frozen=True, slots=True)
class Redeal:
    """Everyone passed: the hand is void and is dealt again with the same first bidder."""


@dataclass(frozen=True, slots=True)
class DeclarerChosen:
    seat: int
    bid: int


@dataclass(frozen=True, slots=True)
class BottomShown:
    """亮底牌: the declarer takes the bottom (8 cards; one deck: 6), shown to everyone."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class TrumpNamed:
    suit: str | None


@dataclass(frozen=True, slots=True)
class Buried:
    """扣底: as many cards as the bottom held, face down (the cards themselves only in the
    declarer's view)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Surrendered:
    seat: int


@dataclass(frozen=True, slots=True)
class BonusDeclared:
    """叫冲关: the qualifying cards are shown to the table."""

    seat: int
    name: str
    value: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Played:
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class TrickWon:
    """The trick's winner takes its points; ``plays`` is the whole trick, for the table."""

    seat: int
    points: int
    by_defenders: bool
    plays: tuple[tuple[int, tuple[Card, ...]], ...] = field(default=(), compare=False)


@dataclass(frozen=True, slots=True)
class TrumpVoid:
    """无主: a player holds no trump any more."""

    seat: int


@dataclass(frozen=True, slots=True)
class TrumpCounts:
    """With two players void of trump, the others' trump count and whether they hold a pair."""

    counts: tuple[tuple[int, int, bool], ...]


Event = (
    BidMade | BidPassed | Redeal | DeclarerChosen | BottomShown | TrumpNamed | Buried | Surrendered
    | BonusDeclared | Played | TrickWon | TrumpVoid | TrumpCounts | TimedOut | AutoChanged
    | HandEnded
)  # fmt: skip
