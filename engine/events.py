"""Events both games share: the table's part of a hand (time-outs, 托管) and its end.

Each game adds its own events (plays, rounds, tricks, bids…) in its package; a host handles
these three itself and hands the rest to the game's presenter.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class TimedOut:
    """The table acted for a seat at its time limit; ``count`` time-outs so far this hand."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class AutoChanged:
    """托管 switched on or off for a seat."""

    seat: int
    on: bool


@dataclass(frozen=True, slots=True)
class HandEnded:
    """The hand is over; ``result`` is the game's typed result."""

    result: Any
