"""From one 四团 hand to the next: who leads and what is carried over."""

from __future__ import annotations

from engine.situan.result import SituanResult


def next_leader(result: SituanResult) -> int:
    """Every later hand is led by the previous hand's 上游 (first player out)."""
    return result.finish[0]


def next_carry(result: SituanResult) -> tuple[int, int] | None:
    """The team totals a carried-over hand hands on (None once the series is decided)."""
    return result.carry
