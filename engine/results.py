"""What a finished hand settles to, as every game types it (the host reads it without knowing
the game; `engine.events.HandEnded` carries it)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Protocol


class Result(Protocol):
    """A finished hand's settlement, typed; ``to_json`` is its hand-record form."""

    @property
    def total(self) -> tuple[Fraction, ...]:
        """Per seat: the hand's result and bonus lines together, in units."""

    @property
    def bonus(self) -> tuple[Fraction, ...]:
        """Per seat: the bonus part (四团 墩, 二七王 冲关), in units."""

    @property
    def void(self) -> bool:
        """A hand that does not count (二七王: everyone passed and the cards are dealt
        again)."""

    @property
    def first_out(self) -> int | None:
        """四团's 上游 (None where the game has none): a player statistic."""

    def to_json(self) -> dict[str, Any]: ...
