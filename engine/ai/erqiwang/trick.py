"""The trick in progress as the 二七王 players read it, for both heuristic levels: the plays a
follower weighs, which side is winning, whether the winner is safe, whether a play would win."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from itertools import islice
from typing import NamedTuple

from engine.ai.erqiwang.unseen import is_top, unseen_of_suit
from engine.cards import Card
from engine.erqiwang.follow import legal_follows, smallest_follow
from engine.erqiwang.order import TRUMP, TrumpOrder
from engine.erqiwang.shapes import Shape, shape_of
from engine.erqiwang.views import ErqiwangView

FOLLOW_CANDIDATES = 80
"""How many legal follows to weigh at most (discards can run into the thousands)."""


class Follows(NamedTuple):
    """What a seat following to the trick in progress has to choose from."""

    lead: Shape
    lead_suit: str
    hand: list[Card]
    held: list[Card]
    """The seat's cards of the led suit."""
    candidates: list[tuple[Card, ...]]
    """The first `FOLLOW_CANDIDATES` legal follows, and the smallest follow."""
    best_seat: int
    """The seat winning the trick so far."""
    partner_winning: bool
    """That seat plays for this seat's side."""


def follows_of(view: ErqiwangView) -> Follows:
    seat, best_seat = view.seat, view.best_seat
    assert seat is not None and best_seat is not None
    order = view.order
    _, lead_cards = view.trick[0]
    lead = shape_of(lead_cards, order)
    lead_suit = order.suit[lead_cards[0]]
    hand = list(view.hand)
    held = [c for c in hand if order.suit[c] == lead_suit]
    candidates = list(islice(legal_follows(hand, held, lead, lead_suit, order), FOLLOW_CANDIDATES))
    smallest = smallest_follow(hand, held, lead, lead_suit, order)
    if smallest not in candidates:
        candidates.append(smallest)
    partner_winning = same_side(view, best_seat, seat)
    return Follows(lead, lead_suit, hand, held, candidates, best_seat, partner_winning)


def same_side(view: ErqiwangView, a: int, b: int) -> bool:
    """Seats ``a`` and ``b`` play for the same side (declarer, or defenders)."""
    return (a == view.declarer) == (b == view.declarer)


def likely_holds(
    view: ErqiwangView,
    best_seat: int,
    count_unseen: Callable[[ErqiwangView, str], Counter[Card]] = unseen_of_suit,
) -> bool:
    """The winning play is the top of what is still unseen (nobody behind can beat it).
    (``count_unseen``: the ``easy`` level counts the unseen cards its own way.)"""
    order = view.order
    for s, cards in view.trick:
        if s == best_seat:
            return is_top(cards, order, count_unseen(view, order.suit[cards[0]]))
    return False


def best_so_far(view: ErqiwangView, lead_suit: str) -> tuple[bool, int]:
    """The winning play of the trick so far: (is it a ruff, the level it competes with)."""
    order = view.order
    for s, cards in view.trick:
        if s == view.best_seat:
            ruff = order.suit[cards[0]] == TRUMP and lead_suit != TRUMP
            return ruff, shape_of(cards, order).top_position()
    raise AssertionError("a trick in progress has a winning play")


def would_win(
    order: TrumpOrder, play: tuple[Card, ...], lead: Shape, lead_suit: str, best: tuple[bool, int]
) -> bool:
    """Whether this play would be winning the trick right after it is played."""
    if lead.components > 1:
        return False  # an allowed throw always wins its trick
    suit = order.suit[play[0]]
    if any(order.suit[c] != suit for c in play) or (suit != lead_suit and suit != TRUMP):
        return False
    if len(play) == 1:
        top = order.position[play[0]]
    elif lead.pair_total and len(set(play)) == len(play):
        return False  # no pair in it: it cannot match a lead with pairs
    else:
        shape = shape_of(play, order)
        if shape.signature != lead.signature:
            return False
        top = shape.top_position()
    ruff = suit == TRUMP and lead_suit != TRUMP
    best_ruff, best_top = best
    return (ruff and not best_ruff) or (ruff == best_ruff and top > best_top)
