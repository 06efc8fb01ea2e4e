"""From one 四团 hand to the next: who leads and what is carried over."""

from __future__ import annotations

from typing import Any


def next_leader(result: dict[str, Any]) -> int:
    """Every later hand is led by the previous hand's 上游 (first player out)."""
    return int(result["finish"][0])


def next_carry(result: dict[str, Any]) -> tuple[int, int] | None:
    """The team totals a carried-over hand hands on (None once the series is decided)."""
    carry = result.get("carry")
    return None if carry is None else (int(carry["A"]), int(carry["B"]))
