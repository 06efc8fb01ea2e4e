"""Card reading for the 二七王 players: the cards a seat has not seen, the highest of them per
suit, and the suits a seat has shown void in — all from its view alone."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from itertools import chain

from engine.cards import ALL_CARDS, Card
from engine.erqiwang.order import TrumpOrder
from engine.erqiwang.views import ErqiwangView


def unseen_cards(view: ErqiwangView) -> Counter[Card]:
    """Cards this seat has not seen: the deck less its hand, the played, the shown bottom
    (its own buried cards when declarer)."""
    # ``played_cards`` holds the trick in progress too
    seen = Counter(chain(view.hand, view.played_cards, view.buried)).get
    # `get`: a Counter's own lookup of a card not seen goes through `__missing__`, a call
    return Counter({c: 2 - n for c in ALL_CARDS if (n := seen(c, 0)) < 2})


def unseen_of_suit(view: ErqiwangView, suit: str) -> Counter[Card]:
    """`unseen_cards`, for one following-suit only."""
    in_suit = order_suit_cards(view.order, suit)
    seen = Counter(c for c in view.hand if c in in_suit)
    seen.update(c for c in view.played_cards if c in in_suit)
    seen.update(c for c in view.buried if c in in_suit)
    return Counter({c: 2 - seen[c] for c in in_suit if seen[c] < 2})


@lru_cache(maxsize=64)
def order_suit_cards(order: TrumpOrder, suit: str) -> frozenset[Card]:
    """The cards that follow ``suit`` under a trump choice."""
    return frozenset(c for c in ALL_CARDS if order.suit[c] == suit)


def shown_voids(view: ErqiwangView, seat: int) -> set[str]:
    """Suits ``seat`` has shown to be void in (did not follow a lead of them)."""
    voids: set[str] = set()
    order = view.order
    for trick in [*view.tricks, view.trick]:
        if not trick:
            continue
        suit = order.suit[trick[0][1][0]]
        for player, cards in trick[1:]:
            if player == seat and any(order.suit[c] != suit for c in cards):
                voids.add(suit)
    return voids


def unseen_tops(unseen: Counter[Card], order: TrumpOrder) -> dict[str, tuple[int, int]]:
    """Per suit, the highest position among unseen cards, and among unseen pairs (-1: none),
    so that many plays can be checked against them in one pass over the unseen cards."""
    tops: dict[str, tuple[int, int]] = {}
    suits, positions = order.suit, order.position
    for c, n in unseen.items():
        suit, position = suits[c], positions[c]
        single, pair = tops.get(suit, (-1, -1))
        if position > single:
            single = position
        if n >= 2 and position > pair:
            pair = position
        tops[suit] = (single, pair)
    return tops


def beats_unseen(play: Sequence[Card], order: TrumpOrder, tops: dict[str, tuple[int, int]]) -> bool:
    top = max(order.position[c] for c in play)
    single, pair = tops.get(order.suit[play[0]], (-1, -1))
    return top >= (pair if len(play) >= 2 else single)


def is_top(play: Sequence[Card], order: TrumpOrder, unseen: Counter[Card]) -> bool:
    """No unseen card (or pair) of the suit outranks this single (or pair)."""
    return beats_unseen(play, order, unseen_tops(unseen, order))
