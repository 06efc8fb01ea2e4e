"""四团 actions and events: the vocabulary between the table and the engine."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card
from engine.situan.combos import Combo


class Action:
    """One thing a seat does: ``play`` (cards, or ranks alone), ``pass``, ``show_start``,
    ``show_pick`` (``reveal``: a seat), ``auto`` (``on``) or ``timeout``.

    A play names either exact ``cards`` or, since suits never matter in 四团, only ``ranks``
    (rank indices); the engine then takes those ranks from the hand.
    """

    __slots__ = ("act", "cards", "on", "ranks", "reveal", "seat")

    def __init__(
        self,
        seat: int,
        act: str,
        *,
        cards: tuple[Card, ...] | None = None,
        ranks: tuple[int, ...] | None = None,
        reveal: int | None = None,
        on: bool | None = None,
    ) -> None:
        self.seat = seat
        self.act = act
        self.cards = cards
        self.ranks = ranks
        self.reveal = reveal
        self.on = on

    @classmethod
    def play(cls, seat: int, combo: Combo) -> Action:
        """Play a combination by ranks (the engine picks the physical cards)."""
        return cls(seat, "play", ranks=combo.ranks)

    @classmethod
    def pass_(cls, seat: int) -> Action:
        return cls(seat, "pass")

    def __repr__(self) -> str:
        extra = ""
        if self.cards is not None:
            extra = " " + " ".join(c.text for c in self.cards)
        elif self.ranks is not None:
            extra = f" ranks={self.ranks}"
        elif self.reveal is not None:
            extra = f" reveal={self.reveal}"
        elif self.on is not None:
            extra = f" on={self.on}"
        return f"<Action seat={self.seat} {self.act}{extra}>"


@dataclass(frozen=True, slots=True)
class Played:
    seat: int
    combo: Combo
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Passed:
    seat: int


@dataclass(frozen=True, slots=True)
class RoundWon:
    """轮: the round's last player takes its point cards; ``leader`` leads the next round."""

    seat: int
    points: int
    leader: int | None


@dataclass(frozen=True, slots=True)
class WentOut:
    """A player played the last card: ``place`` 1 = 上游, 2 = 2游, 3 = 3游."""

    seat: int
    place: int


@dataclass(frozen=True, slots=True)
class CountAnnounced:
    """报牌: a card count that has become public (≤ announce_at)."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class ShowStarted:
    """亮牌 begins: ``by`` and ``partner`` now see each other's hands (privately)."""

    by: int
    partner: int


@dataclass(frozen=True, slots=True)
class HandRevealed:
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class TimedOut:
    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class AutoChanged:
    """托管 switched on or off for a seat."""

    seat: int
    on: bool


@dataclass(frozen=True, slots=True)
class HandEnded:
    result: dict[str, object]


Event = (
    Played | Passed | RoundWon | WentOut | CountAnnounced | ShowStarted | HandRevealed
    | TimedOut | AutoChanged | HandEnded
)  # fmt: skip
