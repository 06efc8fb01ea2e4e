"""二七王 events: what an accepted action changed, for the table to narrate. `ErqiwangEvent` is any
of them (the game's own and the table's), for exhaustive matching.

The table's own events (time-outs, 托管, the end) are `engine.events`' and re-exported here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.cards import Card
from engine.events import AutoChanged, Event, HandEnded, TimedOut
from engine.slots import slot_setters

__all__ = [
    "AutoChanged",
    "BidMade",
    "BidPassed",
    "BonusDeclared",
    "BottomShown",
    "Buried",
    "DeclarerChosen",
    "ErqiwangEvent",
    "Event",
    "HandEnded",
    "Played",
    "Redeal",
    "Surrendered",
    "ThrowFailed",
    "TimedOut",
    "TrickWon",
    "TrumpCounts",
    "TrumpNamed",
    "TrumpVoid",
]


@dataclass(frozen=True, slots=True)
class BidMade(Event):
    seat: int
    points: int

    def __init__(self, seat: int, points: int) -> None:
        set_seat, set_points = _BID_MADE_FIELDS  # `engine.slots`
        set_seat(self, seat)
        set_points(self, points)


_BID_MADE_FIELDS = slot_setters(BidMade)


@dataclass(frozen=True, slots=True)
class BidPassed(Event):
    seat: int

    def __init__(self, seat: int) -> None:
        _BID_PASSED_SEAT(self, seat)  # `engine.slots`


(_BID_PASSED_SEAT,) = slot_setters(BidPassed)


@dataclass(frozen=True, slots=True)
class Redeal(Event):
    """Everyone passed: the hand is void and is dealt again with the same first bidder."""


@dataclass(frozen=True, slots=True)
class DeclarerChosen(Event):
    """The auction is over: ``seat`` declares at ``bid``. ``bids`` is the whole auction in
    order (None: a pass) and ``bottom`` the cards it takes, so the table can tell the end of
    the auction in one post (both left out of equality: they follow from the hand)."""

    seat: int
    bid: int
    bids: tuple[tuple[int, int | None], ...] = field(default=(), compare=False)
    bottom: tuple[Card, ...] = field(default=(), compare=False)


@dataclass(frozen=True, slots=True)
class BottomShown(Event):
    """亮底牌: the declarer takes the bottom (8 cards; one deck: 6), shown to everyone."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class TrumpNamed(Event):
    """定主: ``suit`` is None for no trump (全常主); ``seat`` the declarer who named it."""

    suit: str | None
    seat: int | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Buried(Event):
    """扣底: as many cards as the bottom held, face down (the cards themselves only in the
    declarer's view). ``count``: how many were buried, which everyone may know."""

    seat: int
    count: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Surrendered(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class BonusDeclared(Event):
    """叫冲关: the qualifying cards are shown to the table."""

    seat: int
    name: str
    value: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Played(Event):
    seat: int
    cards: tuple[Card, ...]

    def __init__(self, seat: int, cards: tuple[Card, ...]) -> None:
        set_seat, set_cards = _PLAYED_FIELDS  # `engine.slots`
        set_seat(self, seat)
        set_cards(self, cards)


_PLAYED_FIELDS = slot_setters(Played)


@dataclass(frozen=True, slots=True)
class ThrowFailed(Event):
    """甩牌 failed (``failed_throw = smallest``): ``tried`` is shown to all, and ``played``,
    its lowest beatable component, is led alone (a `Played` event follows)."""

    seat: int
    tried: tuple[Card, ...]
    played: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    """The trick's winner takes its points; ``plays`` is the whole trick, for the table."""

    seat: int
    points: int
    by_defenders: bool
    plays: tuple[tuple[int, tuple[Card, ...]], ...] = field(default=(), compare=False)

    def __init__(
        self,
        seat: int,
        points: int,
        by_defenders: bool,
        plays: tuple[tuple[int, tuple[Card, ...]], ...] = (),
    ) -> None:
        set_seat, set_points, set_by_defenders, set_plays = _TRICK_WON_FIELDS  # `engine.slots`
        set_seat(self, seat)
        set_points(self, points)
        set_by_defenders(self, by_defenders)
        set_plays(self, plays)


_TRICK_WON_FIELDS = slot_setters(TrickWon)


@dataclass(frozen=True, slots=True)
class TrumpVoid(Event):
    """无主: a player holds no trump any more."""

    seat: int


@dataclass(frozen=True, slots=True)
class TrumpCounts(Event):
    """With two players void of trump, the others' trump count and whether they hold a pair."""

    counts: tuple[tuple[int, int, bool], ...]


ErqiwangEvent = (
    BidMade
    | BidPassed
    | Redeal
    | DeclarerChosen
    | BottomShown
    | TrumpNamed
    | Buried
    | Surrendered
    | BonusDeclared
    | ThrowFailed
    | Played
    | TrickWon
    | TrumpVoid
    | TrumpCounts
    | TimedOut
    | AutoChanged
    | HandEnded
)
