"""The ``normal`` 二七王 player, which sees only its seat's view: the plan of the ``easy`` one
(`engine.ai.erqiwang.easy`), leading alike as a defender, with five changes. It bids from the
fitted estimate of the defenders' take (`engine.ai.erqiwang.bidding`), daring a little, and
jumps under another bid when far stronger; it names the trump that estimate favours; its
thresholds halve with one deck; as declarer it leads by `engine.ai.erqiwang.declarer_lead` —
trump pairs first, side aces kept as stoppers; and it follows by
`engine.ai.erqiwang.following` — feeding points to a partner once the declarer has played,
filling a short suit with the cards worth least to keep.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import Action, Bid, Pass
from engine.ai.erqiwang.bidding import best_trump as estimated_best_trump
from engine.ai.erqiwang.bidding import expected_defender_points
from engine.ai.erqiwang.burying import bury_for, safe_trumps
from engine.ai.erqiwang.declarer_lead import keeping_lead
from engine.ai.erqiwang.following import follow_for
from engine.ai.erqiwang.leading import lead_for
from engine.ai.erqiwang.policy import ErqiwangPolicy
from engine.cards import Card
from engine.erqiwang.views import ErqiwangView

BID_DARING = 12
"""Points by which an opening bid may fall short of the defenders' expected take."""
JUMP_ROOM = 25
"""Under another bid, a hand whose floor is further below bids its floor plus this."""
BID_DARING_UNDER = 12
"""The same for a bid under another player's: a bidding war must not outbid the hand."""


class ErqiwangAI(ErqiwangPolicy):
    """The ``normal`` level: bids by the fitted estimate of `engine.ai.erqiwang.bidding`, names
    the trump that estimate favours, and follows by `engine.ai.erqiwang.following`."""

    # ----------------------------------------------------------------- bidding

    def lowest_bid_for(self, view: ErqiwangView) -> int | None:
        """The lowest bid this hand supports (None: not worth declaring at all).

        The bid must exceed what the defenders are expected to take; the AI accepts
        `BID_DARING` points of risk to open and `BID_DARING_UNDER` to underbid (a redeal
        wins nobody anything, and a table where nobody ever declares is no game), halved
        with one deck."""
        rules = view.rules
        decks = getattr(rules, "decks", 2)
        expected = expected_defender_points(view.hand, decks, rules.allow_no_trump)
        opening = not any(points is not None for _, points in view.bids)
        expected -= (BID_DARING if opening else BID_DARING_UNDER) * decks / 2
        step = rules.bid_step
        floor = (int(expected) // step + 1) * step  # the bid must exceed them
        if floor > rules.bid_max:
            return None
        return max(floor, rules.bid_min)

    def _bid(self, view: ErqiwangView, legal: Sequence[Action]) -> Action:
        """Bid the highest the rules allow now while the hand supports it — under another
        player's bid, a hand far stronger than that jumps to `JUMP_ROOM` points above its
        floor, to end the bidding war while keeping a cushion; else pass, or, when passing
        is not allowed, make the highest bid allowed."""
        bids = [a for a in legal if isinstance(a, Bid)]
        floor = self.lowest_bid_for(view)
        if bids and floor is not None and bids[0].points >= floor:
            room = JUMP_ROOM * getattr(view.rules, "decks", 2) // 2
            opening = not any(points is not None for _, points in view.bids)
            jump = [] if opening else [b for b in bids if floor <= b.points <= floor + room]
            return jump[0] if jump else bids[0]
        passing = next((a for a in legal if isinstance(a, Pass)), None)
        return passing or bids[0]

    # ----------------------------------------------------------------- trump and bury

    def _trump(self, view: ErqiwangView) -> str:
        trump = estimated_best_trump(view.hand, view.rules.allow_no_trump)
        return "none" if trump is None else trump

    def _bury(self, view: ErqiwangView) -> tuple[Card, ...]:
        return bury_for(view, safe_trumps(view.rules))

    # ----------------------------------------------------------------- playing

    def _lead(self, view: ErqiwangView) -> tuple[Card, ...]:
        return lead_for(view, keeping_lead)

    def _follow(self, view: ErqiwangView) -> tuple[Card, ...]:
        return follow_for(view)
