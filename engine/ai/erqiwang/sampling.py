"""二七王 deals for the ``hard`` player: an engine hand in the state a seat's view shows. The
cards this seat has not seen are dealt at random where they may lie — never a suit a seat has
shown void in, shown cards with their owner, no pair where a seat showed it had none, for a
defender the declarer's buried cards among them, every other seat's dealt hand fitting what it
bid (`engine.ai.erqiwang.bid_reading`) — and the public actions are replayed."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from engine.actions import Bid, Bury, DeclareBonus, NameTrump, Pass, Play
from engine.ai.erqiwang.bid_reading import bids_fit
from engine.ai.erqiwang.burying import bury_ranking, safe_trumps
from engine.ai.erqiwang.unseen import shown_voids
from engine.cards import ALL_CARDS, Card
from engine.erqiwang.deal import Deal as ErqiwangDeal
from engine.erqiwang.hand import ErqiwangHand
from engine.erqiwang.order import TRUMP
from engine.erqiwang.views import ErqiwangView

SAMPLE_TRIES = 16
"""Deals drawn at most for one sample before the iteration is given up."""
MODELLED_BURY = 0.75
"""For a defender, the share of sampled deals where the declarer buried what the heuristic
bury would (the lowest side cards, points only when safe) rather than at random: players
bury alike, and the bury decides which points are still out and which suits are empty."""


def sampled_hand(view: ErqiwangView, rng: random.Random) -> ErqiwangHand | None:
    """An engine hand in this view's state: the unseen cards dealt at random where they may
    lie, then the public actions replayed."""
    seat = view.seat
    declarer = view.declarer
    assert seat is not None and declarer is not None and view.trump_named
    order = view.order
    copies = 2 if getattr(view.rules, "decks", 2) == 2 else 1
    played_by: list[list[Card]] = [[], [], [], []]
    for trick in [*view.tricks, view.trick]:
        for s, cards in trick:
            played_by[s].extend(cards)
    seen = Counter(view.hand)
    seen.update(view.played_cards)  # the trick in progress included
    seen.update(view.buried)
    pool = Counter({c: copies - seen[c] for c in ALL_CARDS if copies > seen[c]})
    bury_size = len(view.bottom_shown)
    slots = [view.counts[s] for s in range(4)]
    hidden_bury = seat != declarer
    if hidden_bury:
        slots[declarer] += bury_size
    slots[seat] = 0
    hands: list[list[Card]] = [[] for _ in range(4)]
    hands[seat] = list(view.hand)
    # Cards shown to the table that have not been played: the bottom (with the declarer,
    # in hand or buried) and declared 冲关 cards.
    fixed: list[tuple[int, Counter[Card]]] = []
    if seat != declarer:
        fixed.append((declarer, Counter(view.bottom_shown) - Counter(played_by[declarer])))
    for s, (_, _, shown) in view.bonuses.items():
        if s != seat:
            fixed.append((s, Counter(shown) - Counter(played_by[s])))
    for s, shown_left in fixed:
        for c, n in shown_left.items():
            n = min(n, pool[c], slots[s])
            hands[s].extend([c] * n)
            pool[c] -= n
            slots[s] -= n
    voids = [shown_voids(view, s) for s in range(4)]
    for s in range(4):
        if view.void[s]:
            voids[s].add(TRUMP)
    unpaired = _unpaired(view)
    safe = safe_trumps(view.rules)
    for _ in range(SAMPLE_TRIES):
        dealt = [list(h) for h in hands]
        unseen = list(pool.elements())
        rng.shuffle(unseen)
        room = list(slots)
        if not _deal_constrained(
            unseen, dealt, room, voids, order.suit, rng, hidden_bury, declarer
        ):
            continue
        buried: tuple[Card, ...] = view.buried
        if hidden_bury:
            model = rng.random() < MODELLED_BURY
            ranking = (
                bury_ranking(dealt[declarer] + played_by[declarer], order, bury_size, safe)
                if model
                else None
            )
            split = _split_bury(
                dealt[declarer], bury_size, voids[declarer], order.suit, rng, ranking
            )
            if split is None:
                continue
            buried, dealt[declarer] = split
        if any(_has_pair(dealt[s], suit, order.suit) for s, suit in unpaired):
            continue
        before = _dealt_hands(view, dealt, played_by, buried)
        if before is None or not bids_fit(view, before):
            continue
        hand = _erqiwang_replay(view, before, buried)
        if hand is not None:
            return hand
    return None


def _split_bury(
    group: list[Card],
    size: int,
    voids: set[str],
    suit: dict[Card, str],
    rng: random.Random,
    ranking: list[Card] | None,
) -> tuple[tuple[Card, ...], list[Card]] | None:
    """The declarer's buried cards out of its hidden cards: every card of a suit it showed
    void in must be among them; the rest the first of ``ranking`` (what the declarer would
    bury first) that are among them, or at random."""
    must = [c for c in group if suit[c] in voids]
    free = [c for c in group if suit[c] not in voids]
    if len(must) > size:
        return None
    if ranking is None:
        rng.shuffle(free)
    else:
        place = {c: i for i, c in reversed(list(enumerate(ranking)))}
        free.sort(key=place.__getitem__)
    cut = size - len(must)
    return tuple(must + free[:cut]), free[cut:]


def _unpaired(view: ErqiwangView) -> list[tuple[int, str]]:
    """(seat, suit): the seat answered a lead with pairs in that suit with fewer pairs than
    the lead asked for while following with the suit only, so it has no pair of it left."""
    order = view.order
    found: list[tuple[int, str]] = []
    for trick in [*view.tricks, view.trick]:
        if not trick:
            continue
        lead = trick[0][1]
        suit = order.suit[lead[0]]
        wanted = _pairs(lead)
        if not wanted:
            continue
        for player, cards in trick[1:]:
            if all(order.suit[c] == suit for c in cards) and _pairs(cards) < wanted:
                found.append((player, suit))
    return found


def _pairs(cards: Sequence[Card]) -> int:
    return sum(n // 2 for n in Counter(cards).values())


def _has_pair(cards: list[Card], following: str, suit: dict[Card, str]) -> bool:
    counts = Counter(c for c in cards if suit[c] == following)
    return any(n >= 2 for n in counts.values())


def _deal_constrained(
    cards: list[Card],
    hands: list[list[Card]],
    slots: list[int],
    voids: list[set[str]],
    suit: dict[Card, str],
    rng: random.Random,
    hidden_bury: bool,
    declarer: int,
) -> bool:
    """Deal ``cards`` into the open ``slots``, a seat never getting a suit it showed void in
    (the declarer's buried share may be anything); the most constrained cards first."""
    seats = [s for s in range(4) if slots[s] > 0]
    allowed = {
        c: [s for s in seats if suit[c] not in voids[s] or (hidden_bury and s == declarer)]
        for c in set(cards)
    }
    cards.sort(key=lambda c: len(allowed[c]))
    for c in cards:
        room = [s for s in allowed[c] if slots[s] > 0]
        if not room:
            room = [s for s in seats if slots[s] > 0]  # an inconsistent corner: relax
            if not room:
                return False
        s = room[rng.randrange(len(room))] if len(room) > 1 else room[0]
        hands[s].append(c)
        slots[s] -= 1
    return all(n == 0 for n in slots)


def _dealt_hands(
    view: ErqiwangView,
    hands: list[list[Card]],
    played_by: list[list[Card]],
    buried: tuple[Card, ...],
) -> list[tuple[Card, ...]] | None:
    """What each seat was dealt, from what it holds and has played (the declarer: and buried,
    less the bottom it took); None when the declarer's cards cannot hold the bottom shown."""
    declarer = view.declarer
    assert declarer is not None
    dealt: list[tuple[Card, ...]] = []
    for s in range(4):
        held = Counter(hands[s]) + Counter(played_by[s])
        if s == declarer:
            held = held + Counter(buried)
            bottom = Counter(view.bottom_shown)
            if bottom - held:
                return None
            held = held - bottom
        dealt.append(tuple(held.elements()))
    return dealt


def _erqiwang_replay(
    view: ErqiwangView, dealt: list[tuple[Card, ...]], buried: tuple[Card, ...]
) -> ErqiwangHand | None:
    """An engine hand dealt ``dealt``, with the public actions replayed; None when the
    sampled hands refuse one of them."""
    declarer = view.declarer
    assert declarer is not None
    hand = ErqiwangHand(view.rules, ErqiwangDeal(tuple(dealt), view.bottom_shown), view.first)
    try:
        for s, points in view.bids:
            hand.apply(Pass(s) if points is None else Bid(s, points))
        hand.apply(NameTrump(declarer, "none" if view.trump is None else view.trump))
        hand.apply(Bury(declarer, buried))
        declared = set(view.bonuses)
        for trick in [*view.tricks, view.trick]:
            for s, cards in trick:
                if s in declared and DeclareBonus(s) in hand.legal_actions(s):
                    hand.apply(DeclareBonus(s))
                    declared.discard(s)
                hand.apply(Play(s, cards))
        seat = view.seat
        assert seat is not None
        if seat in declared and DeclareBonus(seat) in hand.legal_actions(seat):
            hand.apply(DeclareBonus(seat))
    except Exception:
        return None
    return hand
