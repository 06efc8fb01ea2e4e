"""二七王 hand strength by worth: a rough count of what a hand can hold off as declarer —
trumps by height (pairs more), side aces and kings, side pairs — under a trump choice. The
``easy`` player bids and names trump by it; the ``normal`` one by the fitted estimate of
`engine.ai.erqiwang.bidding`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from engine.cards import SUITS, Card
from engine.erqiwang.order import ORDERS, TRUMP, TrumpOrder


def hand_strength(hand: Sequence[Card], trump: str | None) -> float:
    """A rough worth of a hand under a trump choice, in points the declarer can hold off."""
    return _worth(Counter(hand), ORDERS[trump])


def _worth(counts: Counter[Card], order: TrumpOrder) -> float:
    suits, positions = order.suit, order.position
    worth = 0.0
    for c, n in counts.items():
        if suits[c] == TRUMP:
            position = positions[c]
            worth += 3 + position * 0.6
            if n == 2:
                worth += 4 + position * 0.3
            continue
        if c.rank == "A":
            worth += 4 * n
        elif c.rank == "K":
            worth += 1.5 * n
        if n == 2:
            worth += 1.5
    return worth


@lru_cache(maxsize=4096)
def strongest(hand: tuple[Card, ...]) -> float:
    """The hand's worth under its best trump choice (a player bids up to three times with
    the same hand, and many tables share one AI: worth remembering)."""
    counts = Counter(hand)
    return max(_worth(counts, ORDERS[t]) for t in (*SUITS, None))


def best_trump(hand: Sequence[Card], allow_no_trump: bool) -> str | None:
    """The trump choice under which the hand is worth most."""
    choices: list[str | None] = [*SUITS, None] if allow_no_trump else list(SUITS)
    return max(choices, key=lambda t: hand_strength(hand, t))
