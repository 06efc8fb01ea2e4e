"""二七王 follows. The ``normal`` player's (`follow_for`): points to a partner sure to win the
trick, short of the led suit the rest filled with the cards worth least to keep (`keep_worth`,
trumps above all); otherwise, at both levels, the step they share (`win_cheaply_or_shed`): a
cheap win when winning matters, else the fewest points."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.ai.erqiwang.trick import Follows, best_so_far, follows_of, likely_holds, would_win
from engine.cards import Card
from engine.erqiwang.follow import smallness_key
from engine.erqiwang.order import TRUMP, TrumpOrder
from engine.erqiwang.views import ErqiwangView


def follow_for(view: ErqiwangView) -> tuple[Card, ...]:
    """The cards this seat plays to the trick in progress."""
    order = view.order
    follows = follows_of(view)
    lead, held, candidates = follows.lead, follows.held, follows.candidates
    best_seat, partner_winning = follows.best_seat, follows.partner_winning
    if len(held) < lead.size:
        # Short of the led suit: all of it, filled up with the cards worth least to keep
        # (or, for a winning partner, with points) — the listed follows may miss them.
        rest = list(follows.hand)
        for c in held:
            rest.remove(c)
        need = lead.size - len(held)
        declarer_done = any(s == view.declarer for s, _ in view.trick)
        feed = partner_winning and (
            len(view.trick) == 3 or declarer_done or likely_holds(view, best_seat)
        )
        for fill in (_cheapest(rest, need, order, False), _cheapest(rest, need, order, feed)):
            play = tuple(held) + fill
            if play not in candidates:
                candidates.append(play)
    last_to_play = len(view.trick) == 3

    def cost(play: tuple[Card, ...]) -> tuple[object, ...]:
        return play_cost(play, order)

    # Once the declarer has played to the trick, a defender winning it keeps it for
    # the defenders whatever the others behind play: feed it points.
    declarer_done = any(s == view.declarer for s, _ in view.trick)
    safe = last_to_play or declarer_done or likely_holds(view, best_seat)
    if partner_winning and safe:
        # Give points to the side that is winning, keeping high cards.
        points = [sum(c.points for c in p) for p in candidates]
        most = max(points)
        richest = [p for p, n in zip(candidates, points, strict=True) if n == most]
        return min(richest, key=cost)
    return win_cheaply_or_shed(view, follows, cost)


def win_cheaply_or_shed(
    view: ErqiwangView, follows: Follows, cost: Callable[[tuple[Card, ...]], tuple[object, ...]]
) -> tuple[Card, ...]:
    """For a follower whose partner is not safely winning (both levels): the winning play
    of least ``cost`` when winning matters — points on the table, the last to play, the
    declarer, or points of the led suit in hand — else the fewest points, at least cost."""
    order = view.order
    lead, lead_suit, candidates = follows.lead, follows.lead_suit, follows.candidates
    last_to_play = len(view.trick) == 3
    table_points = sum(c.points for _, cards in view.trick for c in cards)
    declarer = view.seat == view.declarer
    if table_points > 0 or last_to_play or declarer or any(c.points for c in follows.held):
        best = best_so_far(view, lead_suit)
        winning = [p for p in candidates if would_win(order, p, lead, lead_suit, best)]
        if winning:
            return min(winning, key=cost)
    points = [sum(c.points for c in p) for p in candidates]
    fewest = min(points)
    return min((p for p, n in zip(candidates, points, strict=True) if n == fewest), key=cost)


def play_cost(play: Sequence[Card], order: TrumpOrder) -> tuple[object, ...]:
    """What a play costs its player: the worth of the cards given up, then their size."""
    return (sum(keep_worth(c, order) for c in play), smallness_key(play, order))


def keep_worth(c: Card, order: TrumpOrder) -> float:
    """How much a card is worth keeping: trumps above all side cards, then by level."""
    position = order.position[c]
    if order.suit[c] == TRUMP:
        return 20.0 + position * 2
    return position + (4.0 if c.rank == "A" else 0.0)


def _cheapest(
    cards: list[Card], need: int, order: TrumpOrder, points_first: bool
) -> tuple[Card, ...]:
    """The ``need`` cards worth least to keep; with ``points_first``, point cards first."""

    def key(c: Card) -> tuple[float, ...]:
        if points_first:
            return (-c.points if order.suit[c] != TRUMP else 0, keep_worth(c, order))
        return (c.points > 0, keep_worth(c, order))

    return tuple(sorted(cards, key=key)[:need])
