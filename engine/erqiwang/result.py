"""The result of a 二七王 hand, typed, with its hand-record form (``hand-record.md``)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine.cards import Card
from engine.erqiwang.settlement import Reckoning
from engine.options import format_amount

NO_AMOUNTS = (Fraction(0),) * 4


@dataclass(frozen=True, slots=True)
class SettledBonus:
    """A 冲关 that counts in the settlement: its owner, name and value."""

    seat: int
    name: str
    value: int

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.name, "value": self.value}


@dataclass(frozen=True, slots=True)
class ErqiwangResult:
    """How a 二七王 hand ended and what each seat gets. A hand everyone passed is ``redeal``
    (void: dealt again with the same first bidder) and carries nothing else."""

    redeal: bool = False
    declarer: int | None = None
    bid: int | None = None
    trump: str | None = None
    """``"S"``…``"D"``, ``"none"`` (全常主), or None when not named (a surrender before it)."""
    surrendered: bool = False
    defender_points: int = 0
    bottom_points: int = 0
    bottom_multiplier: int = 0
    last_trick_winner: int | None = None
    declarer_won: bool = False
    bonus_points: int = 0
    """``bonus_scoring: points``: the net card points the declared 冲关 moved to the defenders
    (negative: away from them) after the clamp at 0, already in ``defender_points``; else 0."""
    bonuses: tuple[SettledBonus, ...] = ()
    stakes: tuple[Fraction, ...] = NO_AMOUNTS
    bonus: tuple[Fraction, ...] = NO_AMOUNTS
    total: tuple[Fraction, ...] = NO_AMOUNTS
    bottom: tuple[Card, ...] = ()
    """The bottom at the end — the buried cards (the dealt bottom on a surrender before
    burying): public once the hand is over, as the view shows them. Not in the record form:
    the record's bury action holds them."""
    reckoning: Reckoning | None = None
    """How ``stakes`` came about (the bid multiplier, the levels), for the settlement text."""

    @property
    def void(self) -> bool:
        return self.redeal

    @property
    def first_out(self) -> int | None:
        return None

    def to_json(self) -> dict[str, Any]:
        if self.redeal:
            return {"redeal": True}
        return {
            "declarer": self.declarer,
            "bid": self.bid,
            "trump": self.trump,
            "surrendered": self.surrendered,
            "defender_points": self.defender_points,
            "bottom_points": self.bottom_points,
            "bottom_multiplier": self.bottom_multiplier,
            "last_trick_winner": self.last_trick_winner,
            "declarer_won": self.declarer_won,
            "bonus_points": self.bonus_points,
            "bonuses": [b.to_json() for b in self.bonuses],
            "stakes": [format_amount(x) for x in self.stakes],
            "bonus": [format_amount(x) for x in self.bonus],
            "total": [format_amount(x) for x in self.total],
        }
