"""Repeating a timed run and summing it up, for benchmarks on a shared (noisy) machine."""

from __future__ import annotations

import statistics
from collections.abc import Callable


def report_rounds(rounds: int, run: Callable[[], tuple[int, float]], unit: str) -> None:
    """Run ``run`` (returning a count and the seconds it took) several times and print each
    rate, then the best and the median: the host's speed drifts between runs, so the best
    round is the engine's speed and the median shows the spread."""
    rates = []
    for index in range(rounds):
        count, seconds = run()
        rates.append(count / seconds)
        print(f"  round {index + 1}: {count:,} {unit} in {seconds:.2f} s = {rates[-1]:,.0f}/s")
    print(f"{unit}/s: best {max(rates):,.0f}, median {statistics.median(rates):,.0f}")


def report_decision_times(timings: list[float]) -> None:
    """The median, 99th percentile and worst of an AI's decision times (seconds in)."""
    ms = sorted(t * 1000 for t in timings)
    print(
        f"AI decision time: median {statistics.median(ms):.3f} ms, "
        f"p99 {ms[int(len(ms) * 0.99)]:.3f} ms, max {ms[-1]:.2f} ms over {len(ms)} decisions"
    )
