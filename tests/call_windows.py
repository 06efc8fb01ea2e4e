"""Counting calls in time windows: how many calls fall in the window that each call opens
(the budget tests and the call benchmarks; ``times`` in the order the calls were made)."""

from __future__ import annotations

from collections.abc import Sequence


def calls_per_window(times: Sequence[float], window: float) -> list[int]:
    """For each call, how many calls (itself included) fall in ``window`` seconds from it."""
    return [
        sum(1 for later in times[i:] if later < start + window) for i, start in enumerate(times)
    ]
