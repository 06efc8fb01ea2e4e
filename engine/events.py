"""Events both games share: the table's part of a hand (time-outs, 托管) and its end.

Each game adds its own events (plays, rounds, tricks, bids…) in its package; a host handles
these three itself and hands the rest to the game's presenter.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from dataclasses import dataclass

from engine.results import Result


class Event:
    """What an accepted action changed, for the table to narrate: the base of every event,
    the table's own below and each game's (`engine.situan.events`,
    `engine.erqiwang.events`). Events are small frozen values."""

    __slots__ = ()


TIMEOUTS_FOR_AUTO = 3
"""二七王's rule (seed 001 "逾時3次將由系統自動託管"): a seat that times out this many times in a
hand is put on 托管 (it plays on by the table until its player acts again). Each game's
option ``timeouts_for_auto`` sets it per table; 四团's default is 1 (seed 004)."""


@dataclass(frozen=True, slots=True)
class TimedOut(Event):
    """The table acted for a seat at its time limit; ``count`` time-outs so far this hand."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class AutoChanged(Event):
    """托管 switched on or off for a seat."""

    seat: int
    on: bool


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    """The hand is over; ``result`` is the game's typed result."""

    result: Result


def count_time_out(
    timeouts: MutableSequence[int], auto: MutableSequence[bool], seat: int, limit: int
) -> list[TimedOut | AutoChanged]:
    """The table acts for ``seat`` at its time limit: unless 托管 plays for it already (which
    counts no time-out), one more time-out, and at the ``limit``-th the seat is put on 托管.
    Returns the events of that, first of the action's."""
    if auto[seat]:
        return []
    timeouts[seat] += 1
    events: list[TimedOut | AutoChanged] = [TimedOut(seat, timeouts[seat])]
    if timeouts[seat] >= limit:
        auto[seat] = True
        events.append(AutoChanged(seat, True))
    return events
