"""四团 events: what an accepted action changed, for the table to narrate. `SituanEvent` is any
of them (the game's own and the table's), for exhaustive matching.

The table's own events (time-outs, 托管, the end) are `engine.events`' and re-exported here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.cards import Card
from engine.events import AutoChanged, Event, HandEnded, TimedOut
from engine.situan.combos import Combo
from engine.slots import slot_setters

__all__ = [
    "AutoChanged",
    "CountAnnounced",
    "Event",
    "HandEnded",
    "HandRevealed",
    "Passed",
    "Played",
    "RoundWon",
    "ShowAnswered",
    "ShowAsked",
    "ShowStarted",
    "SituanEvent",
    "TimedOut",
    "WentOut",
]


@dataclass(frozen=True, slots=True)
class Played(Event):
    seat: int
    combo: Combo
    cards: tuple[Card, ...]

    def __init__(self, seat: int, combo: Combo, cards: tuple[Card, ...]) -> None:
        set_seat, set_combo, set_cards = _PLAYED_FIELDS
        set_seat(self, seat)
        set_combo(self, combo)
        set_cards(self, cards)


_PLAYED_FIELDS = slot_setters(Played)


@dataclass(frozen=True, slots=True)
class Passed(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class RoundWon(Event):
    """轮: the round's last player takes its point cards; ``leader`` leads the next round.
    ``plays`` is the whole round (seat, combination or None for a pass), for the table."""

    seat: int
    points: int
    leader: int | None
    plays: tuple[tuple[int, Combo | None], ...] = field(default=(), compare=False)

    def __init__(
        self,
        seat: int,
        points: int,
        leader: int | None,
        plays: tuple[tuple[int, Combo | None], ...] = (),
    ) -> None:
        set_seat, set_points, set_leader, set_plays = _ROUND_WON_FIELDS
        set_seat(self, seat)
        set_points(self, points)
        set_leader(self, leader)
        set_plays(self, plays)


_ROUND_WON_FIELDS = slot_setters(RoundWon)


@dataclass(frozen=True, slots=True)
class WentOut(Event):
    """A player played the last card: ``place`` 1 = 上游, 2 = 2游, 3 = 3游."""

    seat: int
    place: int


@dataclass(frozen=True, slots=True)
class CountAnnounced(Event):
    """报牌: a card count that has become public (≤ announce_at)."""

    seat: int
    count: int

    def __init__(self, seat: int, count: int) -> None:
        set_seat, set_count = _COUNT_ANNOUNCED_FIELDS
        set_seat(self, seat)
        set_count(self, count)


_COUNT_ANNOUNCED_FIELDS = slot_setters(CountAnnounced)


@dataclass(frozen=True, slots=True)
class ShowAsked(Event):
    """亮牌 under ``show_consent = partner``: ``by`` asks ``partner``, who must accept it."""

    by: int
    partner: int


@dataclass(frozen=True, slots=True)
class ShowAnswered(Event):
    """The partner's answer to a 亮牌 asked of it: ``accepted``, or refused — by its own
    choice, or by letting its time run out (``timed_out``). A refused show did not happen."""

    by: int
    partner: int
    accepted: bool
    timed_out: bool = False


@dataclass(frozen=True, slots=True)
class ShowStarted(Event):
    """亮牌 begins: ``by`` and ``partner`` now see each other's hands (privately)."""

    by: int
    partner: int


@dataclass(frozen=True, slots=True)
class HandRevealed(Event):
    seat: int
    cards: tuple[Card, ...]


SituanEvent = (
    Played
    | Passed
    | RoundWon
    | WentOut
    | CountAnnounced
    | ShowAsked
    | ShowAnswered
    | ShowStarted
    | HandRevealed
    | TimedOut
    | AutoChanged
    | HandEnded
)
