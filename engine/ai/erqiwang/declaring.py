"""The ``hard`` 二七王 declarer's trump and bury (扣底): a few candidates, each played out by the
``normal`` player on the same sampled deals of the defenders' hands.

Both choices are made once a hand and shape all of it — which suit ruffs, which side suit is
emptied to be ruffed, whether points lie in the bottom the defenders may take at the last
trick — so they are weighed for `DECLARING_BUDGETS` play budgets: two decisions of a hand
that take longer leave the median decision time alone. The only hidden cards at this point
are the defenders' hands, dealt at random (the bids say little about which cards).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from engine.actions import Action, Bid, Bury, NameTrump, Pass
from engine.ai.erqiwang.bidding import trump_estimates
from engine.ai.erqiwang.burying import bury_for, safe_trumps
from engine.cards import ALL_CARDS, Card
from engine.erqiwang.deal import Deal as ErqiwangDeal
from engine.erqiwang.hand import ErqiwangHand
from engine.erqiwang.order import TRUMP
from engine.erqiwang.phases import BURY
from engine.erqiwang.views import ErqiwangView

DECLARING_BUDGETS = 4.0
"""Play budgets a trump or a bury is weighed for."""
TRUMP_CANDIDATES = 3
"""Trump choices weighed at most: the estimate's best ones."""
NEVER_SAFE = 99
"""A trump count no hand reaches: a bury without points."""


def trump_candidates(view: ErqiwangView, chosen: NameTrump) -> list[Action]:
    """The ``normal`` choice, then the next best trumps by the bidding estimate."""
    seat = view.seat
    assert seat is not None
    ranked = trump_estimates(view.hand, view.rules.allow_no_trump)
    candidates: list[Action] = [chosen]
    for trump in ranked:
        action = NameTrump(seat, "none" if trump is None else trump)
        if action != chosen and len(candidates) < TRUMP_CANDIDATES:
            candidates.append(action)
    return candidates


def bury_candidates(view: ErqiwangView, chosen: Bury, most: int) -> list[Action]:
    """The ``normal`` bury, then buries emptying each short side suit, and the ``normal``
    one with points and without them."""
    seat = view.seat
    assert seat is not None
    order = view.order
    size = len(view.bottom_shown)
    safe = safe_trumps(view.rules)
    by_suit = Counter(order.suit[c] for c in view.hand if order.suit[c] != TRUMP)
    short = sorted((n, suit) for suit, n in by_suit.items() if n <= size)
    found = [chosen.cards]
    for _, suit in short:
        found.append(bury_for(view, safe, emptying=suit))
    found += [bury_for(view, 0), bury_for(view, NEVER_SAFE)]
    candidates: list[Action] = []
    seen: set[tuple[str, ...]] = set()
    for cards in found:
        key = tuple(sorted(c.text for c in cards))
        if key not in seen:
            seen.add(key)
            candidates.append(Bury(seat, cards))
    return candidates[:most]


def sampled_start(view: ErqiwangView, rng: random.Random) -> ErqiwangHand:
    """An engine hand at this view's trump or bury decision: the cards the declarer has not
    seen dealt at random to the defenders, the bids replayed (and the trump named)."""
    seat = view.seat
    assert seat is not None and seat == view.declarer
    copies = 2 if getattr(view.rules, "decks", 2) == 2 else 1
    own = Counter(view.hand)
    unseen = [c for c in ALL_CARDS for _ in range(copies - own[c])]
    rng.shuffle(unseen)
    hands: list[tuple[Card, ...]] = []
    for s in range(4):
        if s == seat:
            hands.append(tuple((own - Counter(view.bottom_shown)).elements()))
            continue
        n = view.counts[s]
        hands.append(tuple(unseen[:n]))
        del unseen[:n]
    hand = ErqiwangHand(view.rules, ErqiwangDeal(tuple(hands), view.bottom_shown), view.first)
    for s, points in view.bids:
        hand.apply(Pass(s) if points is None else Bid(s, points))
    if view.phase == BURY:
        hand.apply(NameTrump(seat, "none" if view.trump is None else view.trump))
    return hand


def declaring_playout(
    view: ErqiwangView, play_out: Callable[[ErqiwangHand], float]
) -> Callable[[random.Random, Action], float | None]:
    """The playout of one trump or bury candidate on a sampled deal."""

    def playout(rng: random.Random, action: Action) -> float | None:
        hand = sampled_start(view, rng)
        hand.apply(action)
        return play_out(hand)

    return playout
