"""二七王 burying (扣底), for both heuristic levels: what the declarer puts back."""

from __future__ import annotations

from collections import Counter

from engine.cards import Card
from engine.erqiwang.order import TRUMP
from engine.erqiwang.views import ErqiwangView

SAFE_TRUMPS_FOR_POINTS = 14
"""With this many trumps the declarer expects to win the last trick, so points may be
buried (two decks)."""


def bury_for(view: ErqiwangView, safe_trumps: int) -> tuple[Card, ...]:
    """The declarer's bury: the side cards worth least to keep — emptying short suits, to
    ruff them, and points only with ``safe_trumps`` trumps or more, enough to expect the last
    trick — then, in a hand of almost only trumps, the lowest trumps."""
    order = view.order
    hand = list(view.hand)
    trumps = [c for c in hand if order.suit[c] == TRUMP]
    side = [c for c in hand if order.suit[c] != TRUMP]
    size = len(view.bottom_shown) or 8
    points_safe = len(trumps) - max(0, size - len(side)) >= safe_trumps
    by_suit = Counter(order.suit[c] for c in side)

    def keep_value(c: Card) -> tuple[float, ...]:
        value = float(order.position[c])
        if c.points and not points_safe:
            value += 8  # points in the bottom are doubled or more if it is lost
        if c.rank == "A":
            value += 10
        pair_bonus = 3 if hand.count(c) == 2 else 0
        short_suit = -by_suit[order.suit[c]] * 0.5  # empty short suits to ruff them
        return (value + pair_bonus - short_suit,)

    ranked = sorted(side, key=keep_value)
    buried = ranked[:size]
    if len(buried) < size:  # a hand of almost only trumps: bury the lowest trumps too
        buried += sorted(trumps, key=order.key.__getitem__)[: size - len(buried)]
    return tuple(buried)
