"""The plays the ``hard`` 二七王 player weighs: the ``normal`` choice, then the few others a
player would think of — not a spread of the legal plays, which for a discard of several cards
runs into combinations nobody would play.

Leading, the question is which suit and how high: the lowest card of each other suit, the
strongest lead of each suit. Following, it is whether to win the trick and what it costs:
the cheapest play that would be winning it, the cheapest with the fewest points (shed), the
cheapest with the most points (feed a partner), and the highest play.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from engine.actions import Action, Play
from engine.ai.erqiwang.following import play_cost
from engine.ai.erqiwang.leading import top_key
from engine.ai.erqiwang.trick import best_so_far, would_win
from engine.cards import Card
from engine.erqiwang.follow import smallness_key
from engine.erqiwang.order import TRUMP
from engine.erqiwang.shapes import shape_of
from engine.erqiwang.views import ErqiwangView


def erqiwang_candidates(
    view: ErqiwangView, legal: Sequence[Action], chosen: Play, most: int
) -> list[Action]:
    """``chosen`` (the ``normal`` play) first, then at most ``most - 1`` distinct others."""
    plays = [a for a in legal if isinstance(a, Play)]
    others = _follow_ideas(view, plays) if view.trick else _lead_ideas(view, plays)
    candidates: list[Action] = [chosen]
    seen = {_key(chosen.cards)}
    for play in others:
        key = _key(play.cards)
        if key not in seen and len(candidates) < most:
            seen.add(key)
            candidates.append(play)
    return candidates


def _lead_ideas(view: ErqiwangView, plays: list[Play]) -> Iterable[Play]:
    """Per suit held, side suits first (shortest first) then trump: its lowest single
    without points, then its strongest lead (most cards, then highest); lowest first."""
    order = view.order
    by_suit: dict[str, list[Play]] = {}
    for play in plays:
        suit = order.suit[play.cards[0]]
        if (
            all(order.suit[c] == suit for c in play.cards)
            and shape_of(play.cards, order).components == 1
        ):  # a throw is the ``normal`` player's idea, or nobody's
            by_suit.setdefault(suit, []).append(play)
    held = {suit: sum(1 for c in view.hand if order.suit[c] == suit) for suit in by_suit}
    suits = sorted(by_suit, key=lambda s: (s == TRUMP, held[s]))
    lows: list[Play] = []
    strongest: list[Play] = []
    for suit in suits:
        singles = [p for p in by_suit[suit] if len(p.cards) == 1]
        if singles:
            lows.append(min(singles, key=lambda p: (p.cards[0].points > 0, order.key[p.cards[0]])))
        strongest.append(max(by_suit[suit], key=lambda p: (len(p.cards), top_key(p.cards, order))))
    return [*lows, *strongest]


def _follow_ideas(view: ErqiwangView, plays: list[Play]) -> Iterable[Play]:
    """The cheapest winning play, the cheapest shed, the cheapest feed, the highest."""
    order = view.order
    _, lead_cards = view.trick[0]
    lead = shape_of(lead_cards, order)
    lead_suit = order.suit[lead_cards[0]]
    best = best_so_far(view, lead_suit)

    def cost(play: Play) -> tuple[object, ...]:
        return play_cost(play.cards, order)

    ideas: list[Play] = []
    winning = [p for p in plays if would_win(order, p.cards, lead, lead_suit, best)]
    if winning:
        ideas.append(min(winning, key=cost))
    ideas.append(_cheapest_by(plays, lambda n: -n, cost))  # fewest points
    ideas.append(_cheapest_by(plays, lambda n: n, cost))  # most points
    ideas.append(max(plays, key=lambda p: smallness_key(p.cards, order)))
    return ideas


def _cheapest_by(
    plays: list[Play], rank: Callable[[int], int], cost: Callable[[Play], tuple[object, ...]]
) -> Play:
    """Of the plays whose points ``rank`` highest, the cheapest."""
    points = [sum(c.points for c in p.cards) for p in plays]
    top = max(rank(n) for n in points)
    return min((p for p, n in zip(plays, points, strict=True) if rank(n) == top), key=cost)


def _key(cards: Sequence[Card]) -> tuple[str, ...]:
    return tuple(sorted(c.text for c in cards))
