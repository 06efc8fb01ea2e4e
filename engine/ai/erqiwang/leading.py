"""二七王 leads, for both heuristic levels: a safe throw of all trumps first; as declarer, each
level's own plan (the ``easy`` one here: pull trumps and cash sure winners, then empty a short
side suit; the ``normal`` one in `engine.ai.erqiwang.declarer_lead`); as a defender, lead where
the declarer must still follow, sure winners first, else a low single."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from engine.ai.erqiwang.unseen import beats_unseen, shown_voids, unseen_cards, unseen_tops
from engine.cards import Card
from engine.erqiwang.leads import suit_leads
from engine.erqiwang.order import TRUMP, TrumpOrder
from engine.erqiwang.shapes import shape_of
from engine.erqiwang.views import ErqiwangView

Lead = tuple[Card, ...]
DeclarerLead = Callable[
    [dict[str, list[Card]], list[Lead], list[Lead], Counter[Card], TrumpOrder], Lead
]
"""A declarer's plan: from its hand by suit, its possible leads, those sure to win, the cards
it has not seen and the trump order, the lead."""


def lead_for(view: ErqiwangView, declarer_lead: DeclarerLead | None = None) -> Lead:
    """The cards this seat leads to a new trick (as declarer, by ``declarer_lead``: by
    default the ``easy`` player's `pulling_lead`)."""
    seat = view.seat
    assert seat is not None
    order = view.order
    by_suit: dict[str, list[Card]] = {}
    for c in view.hand:
        by_suit.setdefault(order.suit[c], []).append(c)
    unseen = unseen_cards(view)
    declarer = seat == view.declarer
    throw = _safe_throw(view, by_suit.get(TRUMP, []), unseen)
    if throw:
        return throw
    leads = [lead for cards in by_suit.values() for lead in suit_leads(cards, order)]
    tops = unseen_tops(unseen, order)
    sure = [lead for lead in leads if beats_unseen(lead, order, tops)]
    if declarer:
        return (declarer_lead or pulling_lead)(by_suit, leads, sure, unseen, order)
    # A defender: lead where the declarer must still follow, sure winners first.
    declarer_void = set() if view.declarer is None else shown_voids(view, view.declarer)
    good = [
        lead
        for lead in sure
        if order.suit[lead[0]] not in declarer_void and order.suit[lead[0]] != TRUMP
    ]
    if good:
        return max(good, key=len)
    options = [
        lead
        for lead in leads
        if order.suit[lead[0]] not in declarer_void
        and order.suit[lead[0]] != TRUMP
        and len(lead) == 1
    ]
    if options:
        return min(options, key=lambda lead: (lead[0].points > 0, top_key(lead, order)))
    return min(leads, key=lambda lead: (lead[0].points > 0, top_key(lead, order)))


def pulling_lead(
    by_suit: dict[str, list[Card]],
    leads: list[Lead],
    sure: list[Lead],
    unseen: Counter[Card],
    order: TrumpOrder,
) -> Lead:
    """Pull the defenders' trumps with sure trumps while they have some, cash sure side
    winners, then keep leading trumps while holding the larger share of them."""
    trumps = by_suit.get(TRUMP, [])
    outstanding = sum(1 for c in unseen.elements() if order.suit[c] == TRUMP)
    sure_trumps = [lead for lead in sure if order.suit[lead[0]] == TRUMP]
    if sure_trumps and outstanding:
        return max(sure_trumps, key=lambda lead: (len(lead), top_key(lead, order)))
    side_sure = [lead for lead in sure if order.suit[lead[0]] != TRUMP]
    if side_sure:
        return max(side_sure, key=lambda lead: (len(lead), top_key(lead, order)))
    if trumps and 3 * len(trumps) >= outstanding:
        return (max(trumps, key=order.key.__getitem__),)
    low = lowest_side_lead(by_suit, order)
    if low is not None:
        return low
    return min(leads, key=lambda lead: top_key(lead, order))


def _safe_throw(
    view: ErqiwangView, trumps: list[Card], unseen: Counter[Card]
) -> tuple[Card, ...] | None:
    """Throw all trumps when it is certain to be allowed: the others are announced void
    (online) — under ``trump_if_unbeatable`` a throw is only tried when nothing unseen
    is a trump at all."""
    if len(trumps) < 2 or view.rules.throw == "none":
        return None
    if shape_of(trumps, view.order).components < 2:
        return None
    seat = view.seat
    others_void = all(view.void[s] for s in range(4) if s != seat)
    if others_void or not any(view.order.suit[c] == TRUMP for c in unseen.elements()):
        return tuple(trumps)
    return None


def top_key(play: Sequence[Card], order: TrumpOrder) -> tuple[int, int, int]:
    return max(order.key[c] for c in play)


def lowest_side_lead(by_suit: dict[str, list[Card]], order: TrumpOrder) -> tuple[Card, ...] | None:
    """The lowest card of the shortest side suit (to empty it and ruff later)."""
    side = [(len(cards), suit) for suit, cards in by_suit.items() if suit != TRUMP and cards]
    if not side:
        return None
    _, suit = min(side)
    cards = by_suit[suit]
    no_points = [c for c in cards if not c.points] or cards
    return (min(no_points, key=order.key.__getitem__),)
