"""二七王 burying (扣底), for both heuristic levels: what the declarer puts back."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.cards import Card
from engine.erqiwang.order import TRUMP, TrumpOrder
from engine.erqiwang.views import ErqiwangView

SAFE_TRUMPS_FOR_POINTS = 14
"""With this many trumps the declarer expects to win the last trick, so points may be
buried (two decks)."""


def safe_trumps(rules: object) -> int:
    """`SAFE_TRUMPS_FOR_POINTS` for these rules' decks: half as many with one deck."""
    return SAFE_TRUMPS_FOR_POINTS * getattr(rules, "decks", 2) // 2


def bury_for(view: ErqiwangView, safe_trumps: int, emptying: str | None = None) -> tuple[Card, ...]:
    """The declarer's bury: the side cards worth least to keep — emptying short suits, to
    ruff them, and points only with ``safe_trumps`` trumps or more, enough to expect the last
    trick — then, in a hand of almost only trumps, the lowest trumps. With ``emptying`` (a
    side suit), that suit's cards go first (the ``hard`` player weighs such buries)."""
    size = len(view.bottom_shown) or 8
    return tuple(bury_ranking(view.hand, view.order, size, safe_trumps, emptying)[:size])


def bury_ranking(
    hand: Sequence[Card],
    order: TrumpOrder,
    size: int,
    safe_trumps: int,
    emptying: str | None = None,
) -> list[Card]:
    """Every card of a declarer's hand (with the bottom), from the first it would bury to the
    last: side cards by how little they are worth keeping, then trumps from the lowest (a
    ``hard`` defender also reads the declarer's likely bury from it)."""
    cards = list(hand)
    trumps = [c for c in cards if order.suit[c] == TRUMP]
    side = [c for c in cards if order.suit[c] != TRUMP]
    points_safe = len(trumps) - max(0, size - len(side)) >= safe_trumps
    by_suit = Counter(order.suit[c] for c in side)
    held = Counter(cards)

    def keep_value(c: Card) -> tuple[bool, float]:
        value = float(order.position[c])
        if c.points and not points_safe:
            value += 8  # points in the bottom are doubled or more if it is lost
        if c.rank == "A":
            value += 10
        pair_bonus = 3 if held[c] == 2 else 0
        short_suit = -by_suit[order.suit[c]] * 0.5  # empty short suits to ruff them
        return (order.suit[c] != emptying, value + pair_bonus - short_suit)

    # a hand of almost only trumps buries the lowest trumps too
    return sorted(side, key=keep_value) + sorted(trumps, key=order.key.__getitem__)
