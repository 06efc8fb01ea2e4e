"""四团 deals for the ``hard`` player: an engine hand in the state a seat's view shows, the
cards this seat has not seen dealt at random to the other hands and the bottom, consistently
with what is public (cards played, hands shown, 墩 shown at the deal)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.ai.situan.reading import Reading, agree
from engine.cards import Card
from engine.situan.combos import BJ_INDEX, COPIES, LJ_INDEX, RANK_COUNT, RANKS
from engine.situan.deal import Deal as SituanDeal
from engine.situan.hand import SituanHand
from engine.situan.views import SituanView


def sampled_hand(view: SituanView, rng: random.Random) -> SituanHand | None:
    """An engine hand in this view's state, the unseen cards dealt at random."""
    deal = sampled_deal(view, rng)
    return None if deal is None else _situan_hand(view, *deal)


def sampled_deal(
    view: SituanView, rng: random.Random, reading: Reading | None = None
) -> tuple[list[list[int]], list[int]] | None:
    """The unseen cards dealt at random: every seat's count per rank index, and the bottom's
    ranks; None when the draw cannot fit what is public (another draw may). With a
    ``reading`` of the plays so far (`engine.ai.situan.reading`), the deal is then made to
    agree with it as far as a few swaps can."""
    seat = view.seat
    assert seat is not None
    known: dict[int, list[int]] = {seat: _rank_counts(view.hand)}
    if view.revealed is not None:
        known[view.revealed] = _rank_counts(view.revealed_hand)
    for s, seen_cards in view.show_seen.items():
        known[s] = _rank_counts(seen_cards)
    pool = [COPIES[r] - view.played_counts[r] for r in range(RANK_COUNT)]
    for counts in known.values():
        for r in range(RANK_COUNT):
            pool[r] -= counts[r]
    hidden = [s for s in range(4) if s not in known and view.held[s]]
    hands: dict[int, list[int]] = dict(known)
    for s in range(4):
        if s not in hands:
            hands[s] = [0] * RANK_COUNT
    need = {s: view.held[s] for s in hidden}
    # A 墩 shown at the deal (亮墩) stays in its owner's hand until played. Under
    # ``dun_counted = played`` the 墩 shown are those already played: nothing to keep.
    dealt = view.rules.dun_counted == "dealt"
    for s in hidden if dealt else ():
        placed: set[int] = set()  # the ranks that already stand for one of this seat's 墩
        for dun in view.duns[s] if len(view.duns) > s else []:
            if not isinstance(dun, int):
                _reserve_jokers(view, s, dun, pool, hands, need)
                continue
            played = view.played_by[s]
            whole = [r for r in range(RANK_COUNT - 2) if played[r] >= dun and r not in placed]
            if whole:  # a rank it has played this many of: that 墩 is out, nothing to keep
                placed.add(whole[0])
                continue
            ranks = [r for r in range(RANK_COUNT - 2) if r not in placed]
            kept = _reserve_dun(view, s, ranks, dun, pool, hands, need)
            if kept >= 0:
                placed.add(kept)
    floors = {s: list(hands[s]) for s in hidden}  # the 墩 kept: swaps must leave them
    unseen: list[int] = [r for r in range(RANK_COUNT) for _ in range(max(0, pool[r]))]
    rng.shuffle(unseen)
    at = 0
    for s in hidden:
        take = need[s]
        if take < 0 or at + take > len(unseen):
            return None
        for r in unseen[at : at + take]:
            hands[s][r] += 1
        at += take
    bottom = unseen[at:]
    if reading:
        read = {s: reading[s] for s in hidden if s in reading}
        counts = [0] * RANK_COUNT
        for r in bottom:
            counts[r] += 1
        agree([hands[s] for s in range(4)], counts, read, floors, rng)
        bottom = [r for r in range(RANK_COUNT) for _ in range(counts[r])]
    return [hands[s] for s in range(4)], bottom


def _reserve_dun(
    view: SituanView,
    s: int,
    ranks: list[int],
    dun: int,
    pool: list[int],
    hands: dict[int, list[int]],
    need: dict[int, int],
) -> int:
    """Keep in seat ``s`` the rest of a dealt 墩 of ``dun`` cards, at a rank it could be (one
    with that many cards left unseen and no more than the seat still holds): the rank kept,
    or -1 when none can be."""
    played = view.played_by[s]
    fits = [
        r
        for r in ranks
        if pool[r] >= dun - played[r] and hands[s][r] == 0 and dun - played[r] <= need[s]
    ]
    if not fits:
        return -1
    r = max(fits, key=lambda r: played[r])
    keep = dun - played[r]
    hands[s][r] += keep
    pool[r] -= keep
    need[s] -= keep
    return r


def _reserve_jokers(
    view: SituanView,
    s: int,
    dun: str,
    pool: list[int],
    hands: dict[int, list[int]],
    need: dict[int, int],
) -> None:
    """Keep in seat ``s`` the jokers of its dealt 墩 (``LJ3``, ``KINGS4``) not yet played."""
    jokers = [(LJ_INDEX, 3)] + ([(BJ_INDEX, 1)] if dun == "KINGS4" else [])
    for rank, dealt in jokers:
        keep = min(dealt - view.played_by[s][rank], pool[rank])
        if keep > 0:
            hands[s][rank] += keep
            pool[rank] -= keep
            need[s] -= keep


def _rank_counts(cards: Sequence[Card]) -> list[int]:
    from engine.situan.combos import RANK_INDEX

    counts = [0] * RANK_COUNT
    for c in cards:
        counts[RANK_INDEX[c.rank]] += 1
    return counts


_SITUAN_CARD: dict[int, Card] = {}


def _situan_card(rank: int) -> Card:
    from engine.cards import card

    if rank not in _SITUAN_CARD:
        name = RANKS[rank]
        _SITUAN_CARD[rank] = card(name if name in ("LJ", "BJ") else "S" + name)
    return _SITUAN_CARD[rank]


def _situan_hand(view: SituanView, hands: list[list[int]], bottom: list[int]) -> SituanHand:
    """Suits never matter in 四团: the sampled hands are built from one card per rank."""
    cards = tuple(
        tuple(_situan_card(r) for r in range(RANK_COUNT) for _ in range(hands[s][r]))
        for s in range(4)
    )
    deal = SituanDeal(cards, tuple(_situan_card(r) for r in bottom))
    return SituanHand.standing_where(view, deal)
