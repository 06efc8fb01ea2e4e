"""Reading the 二七王 auction (叫分) for the ``hard`` player's sampled deals.

Bids are public, and they say something about the hands behind them: a seat that bid holds a
hand that supports the bid, a seat that passed one that did not support the highest bid open
to it. A sampled deal is kept only when every other seat's dealt hand fits its part of the
auction as the ``normal`` player bids (`engine.ai.erqiwang.normal`), give or take `BID_SLACK` points
of the defenders' expected take, for players who bid a little bolder or shyer. A bid the
rules forced (``first_must_bid``) says nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.ai.erqiwang.bidding import expected_defender_points
from engine.ai.erqiwang.normal import BID_DARING, BID_DARING_UNDER
from engine.cards import Card
from engine.erqiwang.views import ErqiwangView

BID_SLACK = 10
"""Points of the defenders' expected take (two decks; halved with one) by which a seat may
bid bolder or shyer than the ``normal`` player would and still be read as fitting."""


def bids_fit(view: ErqiwangView, dealt: Sequence[Sequence[Card]]) -> bool:
    """Whether each other seat's ``dealt`` hand (before the bottom) fits what it bid."""
    rules = view.rules
    decks = getattr(rules, "decks", 2)
    slack = BID_SLACK * decks / 2
    expected: dict[int, float] = {}
    lowest: int | None = None
    for turn, (seat, points) in enumerate(view.bids):
        opening = lowest is None
        highest = rules.bid_max if lowest is None else lowest - rules.bid_step
        forced = (turn == 0 and rules.first_must_bid) or highest < rules.bid_min
        if seat != view.seat and not forced:
            if seat not in expected:
                expected[seat] = expected_defender_points(dealt[seat], decks, rules.allow_no_trump)
            daring = (BID_DARING if opening else BID_DARING_UNDER) * decks / 2
            take = expected[seat] - daring  # a bid must exceed it (`lowest_bid_for`)
            if points is None and take < highest - slack:
                return False  # strong enough to have bid, yet passed
            if points is not None and take >= points + slack:
                return False  # too weak for the bid it made
        if points is not None:
            lowest = points
    return True
