"""The ``easy`` 二七王 player: a frozen copy of the first heuristic player (the baseline).

A 二七王 player that sees only its seat's view.

Bidding follows hand strength (jokers, 7s, 2s, the best suit, side aces, pairs): it opens high
and goes no lower than the hand supports. As declarer it names the strongest suit, buries low
side cards (emptying short suits so it can ruff, and points only when its trumps are many
enough to keep the last trick), draws trumps when it holds the majority, and cashes sure
winners. As a defender it leads where the declarer still has to follow, gives points to a
partner who is winning, wins cheaply when the declarer is winning, and discards low otherwise.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.actions import Action, Bid, Pass
from engine.ai.erqiwang.burying import SAFE_TRUMPS_FOR_POINTS, bury_for
from engine.ai.erqiwang.following import win_cheaply_or_shed
from engine.ai.erqiwang.policy import ErqiwangPolicy
from engine.ai.erqiwang.strength import best_trump, strongest
from engine.ai.erqiwang.trick import follows_of, likely_holds
from engine.ai.erqiwang.unseen import order_suit_cards
from engine.cards import Card
from engine.erqiwang.follow import smallness_key
from engine.erqiwang.views import ErqiwangView

BID_MARGIN = 5
"""Points of room the AI keeps above what it expects the defenders to score."""


def expected_defender_points(strength: float) -> float:
    """What defenders score against this AI as declarer, by the hand's worth before the
    bottom: a least-squares fit over 500 seeded AI-against-AI hands (residual sd ≈ 31)."""
    return 251.4 - 1.14 * strength


class ErqiwangEasyAI(ErqiwangPolicy):
    """The ``easy`` level: bids and names trump by worth (`engine.ai.erqiwang.strength`)."""

    # ----------------------------------------------------------------- bidding

    def lowest_bid_for(self, view: ErqiwangView) -> int | None:
        """The lowest bid this hand supports (None: not worth declaring at all)."""
        rules = view.rules
        strength = strongest(view.hand)
        expected = expected_defender_points(strength)
        step = rules.bid_step
        floor = (int(expected + BID_MARGIN) // step + 1) * step  # the bid must exceed them
        if floor > rules.bid_max:
            return None
        return max(floor, rules.bid_min)

    def _bid(self, view: ErqiwangView, legal: Sequence[Action]) -> Action:
        """Bid the highest the rules allow now while the hand supports it; else pass, or,
        when passing is not allowed, make the highest bid allowed."""
        # The engine lists the bids first, highest first, then the pass, then what a seat
        # may do at any time: the highest bid is the first action, the pass the last Pass.
        highest = legal[0] if legal and isinstance(legal[0], Bid) else None
        floor = self.lowest_bid_for(view)
        if highest is not None and floor is not None and highest.points >= floor:
            return highest
        passing = next((a for a in reversed(legal) if isinstance(a, Pass)), None)
        chosen = passing or highest
        assert chosen is not None, "a bidder may always bid or pass"
        return chosen

    # ----------------------------------------------------------------- trump and bury

    def _trump(self, view: ErqiwangView) -> str:
        trump = best_trump(view.hand, view.rules.allow_no_trump)
        return "none" if trump is None else trump

    def _bury(self, view: ErqiwangView) -> tuple[Card, ...]:
        # the first player kept two decks' threshold with one deck too
        return bury_for(view, SAFE_TRUMPS_FOR_POINTS)

    # ----------------------------------------------------------------- following

    def _follow(self, view: ErqiwangView) -> tuple[Card, ...]:
        order = view.order
        follows = follows_of(view)
        candidates = follows.candidates
        last_to_play = len(view.trick) == 3

        def cost(play: tuple[Card, ...]) -> tuple[object, ...]:
            return smallness_key(play, order)

        if follows.partner_winning and (
            last_to_play or likely_holds(view, follows.best_seat, _unseen_of_suit)
        ):
            # Give points to the side that is winning, keeping high cards.
            points = [sum(c.points for c in p) for p in candidates]
            most = max(points)
            richest = [p for p, n in zip(candidates, points, strict=True) if n == most]
            return max(richest, key=lambda p: _neg(cost(p)))
        return win_cheaply_or_shed(view, follows, cost)


def _neg(key: tuple[object, ...]) -> tuple[object, ...]:
    levels, suits = key
    assert isinstance(levels, tuple) and isinstance(suits, tuple)
    return (tuple((-a, -b) for a, b in levels), tuple(-s for s in suits))


def _unseen_of_suit(view: ErqiwangView, suit: str) -> Counter[Card]:
    """The unseen cards of one following-suit — counting the trick in progress twice, as the
    first player did (``played_cards`` holds it already): kept, this level is frozen."""
    in_suit = order_suit_cards(view.order, suit)
    seen = Counter(c for c in view.hand if c in in_suit)
    seen.update(c for c in view.played_cards if c in in_suit)
    seen.update(c for c in view.buried if c in in_suit)
    for _, cards in view.trick:
        seen.update(c for c in cards if c in in_suit)
    return Counter({c: 2 - seen[c] for c in in_suit if seen[c] < 2})
