"""The result of a 四团 hand, typed, with its hand-record form (``hand-record.md``)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine.options import format_amount

TEAM_NAMES = ("A", "B")

Dun = int | str
"""What earned 墩: a same-rank size ≥ 7, ``"LJ3"`` or ``"KINGS4"``."""


def dun_units(dun: Dun) -> int:
    """墩 a holding or play is worth: 7 cards = 1 … 12 = 6; 3 small jokers 1; four kings 2."""
    if dun == "KINGS4":
        return 2
    if dun == "LJ3":
        return 1
    assert isinstance(dun, int)
    return dun - 6


@dataclass(frozen=True, slots=True)
class SituanResult:
    """How a 四团 hand ended and what each seat gets.

    ``winner`` is ``"A"`` (seats 0, 2), ``"B"`` (1, 3) or None when carried over, in which
    case ``carry`` holds the cumulative team totals; ``carried_in`` is the totals the hand
    started from in a carried-over series. ``stakes``, ``bonus`` (墩) and ``total``
    are exact amounts per seat, in units. ``remaining`` is what the 4游 still held in point
    cards when three were out (they went to the other team).
    """

    finish: tuple[int, ...]
    ended_by: str
    captured: tuple[int, ...]
    team_points: tuple[int, int]
    winner: str | None
    carry: tuple[int, int] | None
    dun: tuple[tuple[Dun, ...], ...]
    shown: tuple[int, int | None] | None
    stakes: tuple[Fraction, ...]
    bonus: tuple[Fraction, ...]
    total: tuple[Fraction, ...]
    bottom_points: int = 0
    remaining: int = 0
    carried_in: tuple[int, int] | None = None
    """The series' team totals this hand started from (the record's ``carry``): what a
    series decided here adds this hand to. Not in `to_json`: the record holds it already."""

    @property
    def void(self) -> bool:
        return False

    @property
    def first_out(self) -> int | None:
        return self.finish[0] if self.finish else None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "finish": list(self.finish),
            "ended_by": self.ended_by,
            "captured": list(self.captured),
            "team_points": {"A": self.team_points[0], "B": self.team_points[1]},
            "winner": self.winner,
        }
        if self.carry is not None:
            out["carry"] = {"A": self.carry[0], "B": self.carry[1]}
        out.update(
            {
                "dun": [list(d) for d in self.dun],
                "shown": None
                if self.shown is None
                else {"by": self.shown[0], "revealed": self.shown[1]},
                "stakes": [format_amount(x) for x in self.stakes],
                "bonus": [format_amount(x) for x in self.bonus],
                "total": [format_amount(x) for x in self.total],
            }
        )
        return out
