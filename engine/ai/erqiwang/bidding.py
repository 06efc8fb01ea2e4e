"""二七王 bidding from hand strength (叫分): what the defenders are expected to take against this
hand as declarer, and the lowest bid the hand is worth.

The estimate is a linear model of a few hand features — trumps held and their height, trump
pairs, jokers, side aces and kings, side pairs, void side suits — under the hand's best trump
choice, fitted by least squares over 1,500 seeded hands declared at 120 by the heuristic player
against heuristic defenders (seeds 0–1499, classic rules). It
includes on average what the bottom brings. With one deck every figure is halved: a
12-card hand has about half of each feature, so the estimate is the intercept halved plus the
same per-feature weights.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from engine.cards import Card
from engine.erqiwang.order import ORDERS, TRUMP

SUITS = ("S", "H", "C", "D")
FEATURES = (
    "trumps",
    "trump_height",
    "trump_pairs",
    "jokers",
    "high_trumps",
    "side_aces",
    "side_kings",
    "side_pairs",
    "voids",
)
INTERCEPT = 272.7
WEIGHTS = (-7.11, -4.54, -1.76, -0.15, -1.58, -5.12, -6.82, -3.06, 0.2)
"""Points the defenders take per unit of each feature (negative: fewer)."""
SPREAD = 30.8
"""The residual standard deviation of the fit, in points (two decks)."""


def features(hand: Sequence[Card], trump: str | None) -> tuple[float, ...]:
    order = ORDERS[trump]
    counts = Counter(hand)
    trumps = height = pairs = jokers = high = aces = kings = side_pairs = 0.0
    side_suits: set[str] = set()
    for c, n in counts.items():
        if order.suit[c] == TRUMP:
            position = order.position[c]
            trumps += n
            height += n * position / 16
            pairs += n == 2
            jokers += n if c.rank in ("BJ", "LJ") else 0
            high += n if position >= 13 or (trump is None and position >= 1) else 0
            continue
        side_suits.add(c.suit)
        aces += n if c.rank == "A" else 0
        kings += n if c.rank == "K" else 0
        side_pairs += n == 2
    voids = sum(1 for s in SUITS if s != trump and s not in side_suits)
    return (trumps, height, pairs, jokers, high, aces, kings, side_pairs, float(voids))


def best_trump(hand: Sequence[Card], allow_no_trump: bool) -> str | None:
    """The trump choice under which the defenders are expected to take least."""
    return trump_estimates(hand, allow_no_trump)[0]


def trump_estimates(hand: Sequence[Card], allow_no_trump: bool) -> list[str | None]:
    """The trump choices (None: no trump), from the one the defenders are expected to take
    least against."""
    choices: list[str | None] = [*SUITS, None] if allow_no_trump else list(SUITS)
    held = tuple(hand)
    return sorted(choices, key=lambda t: _estimate(held, t, 2))


def expected_defender_points(
    hand: Sequence[Card], decks: int = 2, allow_no_trump: bool = True
) -> float:
    """What the defenders are expected to take against this hand (before the bottom), under
    its best trump choice."""
    key = tuple(sorted(hand, key=lambda c: c.text))
    return _best_estimate(key, decks, allow_no_trump)


@lru_cache(maxsize=8192)
def _best_estimate(hand: tuple[Card, ...], decks: int, allow_no_trump: bool) -> float:
    choices: list[str | None] = [*SUITS, None] if allow_no_trump else list(SUITS)
    return min(_estimate(hand, t, decks) for t in choices)


def _estimate(hand: tuple[Card, ...], trump: str | None, decks: int) -> float:
    value = INTERCEPT * decks / 2
    for weight, x in zip(WEIGHTS, features(hand, trump), strict=True):
        value += weight * x
    return value
