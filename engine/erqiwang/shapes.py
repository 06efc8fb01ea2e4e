"""Shapes of 二七王 plays: pairs, tractors (拖拉机), throws (甩牌) and the follow score.

All functions take cards of one following-suit and the `TrumpOrder` in force.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import pairwise
from operator import itemgetter

from engine.cards import Card
from engine.erqiwang.order import TrumpOrder

POSITIONS = 17
"""Positions in the longest ladder (trump with a trump suit: 0–16)."""


class Shape:
    """A play split into components: tractors (longest first), then pairs, then singles.

    ``tractors`` is a list of (length, top position, cards); ``pairs`` (position, card);
    ``singles`` (position, card).
    """

    __slots__ = ("components", "pair_total", "pairs", "signature", "singles", "size", "tractors")

    def __init__(
        self,
        tractors: list[tuple[int, int, tuple[Card, ...]]],
        pairs: list[tuple[int, Card]],
        singles: list[tuple[int, Card]],
        size: int,
    ) -> None:
        self.tractors = tractors
        self.pairs = pairs
        self.singles = singles
        self.size = size
        self.signature: tuple[tuple[int, ...], int, int] = (
            tuple(t[0] for t in tractors),
            len(pairs),
            len(singles),
        )
        """What two plays must share to compete: tractor lengths, pair count, single count."""
        self.components = len(tractors) + len(pairs) + len(singles)
        self.pair_total = sum(t[0] for t in tractors) + len(pairs) if tractors else len(pairs)
        """Pairs in the play, those inside tractors included (a lead's: read by each follow)."""

    def top_position(self) -> int:
        """The level a play competes with: the top of its largest component."""
        if self.tractors:
            return self.tractors[0][1]
        if self.pairs:
            return max(p for p, _ in self.pairs)
        return max(p for p, _ in self.singles)

    def largest_component_cards(self) -> int:
        if self.tractors:
            return 2 * self.tractors[0][0]
        return 2 if self.pairs else 1


def pairs_by_position(cards: Iterable[Card], order: TrumpOrder) -> dict[int, list[Card]]:
    """Every pair (both copies of one card) grouped by position."""
    seen: set[Card] = set()
    found: dict[int, list[Card]] = {}
    position = order.position
    for c in cards:
        if c in seen:
            found.setdefault(position[c], []).append(c)
        else:
            seen.add(c)
    return found


_SMALL_SHAPES: dict[TrumpOrder, tuple[dict[Card, Shape], dict[Card, Shape]]] = {}
"""Per card order, the shape of each single and each pair, made once: most leads and plays
are one of them, and a shape is never changed once made (nothing writes to its lists). Only
the prebuilt orders exist (`ORDERS`, `BIDDING_ORDER`), so this holds a few entries."""


def _small_shapes(order: TrumpOrder) -> tuple[dict[Card, Shape], dict[Card, Shape]]:
    shapes = _SMALL_SHAPES.get(order)
    if shapes is None:
        position = order.position
        singles = {c: Shape([], [], [(p, c)], 1) for c, p in position.items()}
        pairs = {c: Shape([], [(p, c)], [], 2) for c, p in position.items()}
        shapes = _SMALL_SHAPES[order] = (singles, pairs)
    return shapes


def single_shape(c: Card, order: TrumpOrder) -> Shape:
    """The shape of ``c`` played alone."""
    shapes = _SMALL_SHAPES.get(order)  # made already but for a new order: no second call
    return (shapes or _small_shapes(order))[0][c]


def shape_of(cards: Sequence[Card], order: TrumpOrder) -> Shape:
    """Split cards into the longest tractors first, then pairs, then singles."""
    size = len(cards)
    if size == 1:
        return _small_shapes(order)[0][cards[0]]
    if size == 2:
        first, second = cards
        if first is second:
            return _small_shapes(order)[1][first]
        # Two different cards (a pair led, answered by two others): two singles, higher first.
        if order.shape_key[first] < order.shape_key[second]:
            first, second = second, first
        position = order.position
        return Shape([], [], [(position[first], first), (position[second], second)], 2)
    counts = dict.fromkeys(cards, 0)  # a Counter's set-up costs more than a few cards
    for c in cards:
        counts[c] += 1
    position = order.position
    pair_slots = pairs_by_position(cards, order)
    tractors: list[tuple[int, int, tuple[Card, ...]]] = []
    if pair_slots:
        by_key = order.key.__getitem__
        for pairs in pair_slots.values():
            if len(pairs) > 1:
                pairs.sort(key=by_key, reverse=True)
        while True:
            run = _longest_run(pair_slots)
            if run is None:
                break
            start, length = run
            used: list[Card] = []
            for p in range(start + length - 1, start - 1, -1):
                c = pair_slots[p].pop(0)
                if not pair_slots[p]:
                    del pair_slots[p]
                used += [c, c]
                counts[c] -= 2
            tractors.append((length, start + length - 1, tuple(used)))
    loose_pairs: list[tuple[int, Card]] = []
    for p in sorted(pair_slots, reverse=True):
        for c in pair_slots[p]:
            loose_pairs.append((p, c))
            counts[c] -= 2
    unpaired = [c for c, n in counts.items() if n > 0]  # left unpaired: one copy each
    unpaired.sort(key=order.shape_key.__getitem__, reverse=True)
    singles = list(zip(map(position.__getitem__, unpaired), unpaired, strict=True))
    if len(tractors) > 1:
        tractors.sort(key=itemgetter(0, 1), reverse=True)
    return Shape(tractors, loose_pairs, singles, size)


def _longest_run(pair_slots: dict[int, list[Card]]) -> tuple[int, int] | None:
    """The longest run of consecutive positions holding a pair (≥ 2), highest first on ties."""
    best: tuple[int, int] | None = None
    for p in sorted(pair_slots, reverse=True):
        if p + 1 in pair_slots:
            continue  # not the top of a run
        length = 1
        while p - length in pair_slots:
            length += 1
        if length >= 2 and (best is None or length > best[1]):
            best = (p - length + 1, length)
    return best


def is_tractor(cards: Sequence[Card], order: TrumpOrder) -> bool:
    """Two or more pairs of one following-suit at consecutive positions, one pair per level."""
    if len(cards) < 4 or len(cards) % 2:
        return False
    suit = order.suit[cards[0]]
    if any(order.suit[c] != suit for c in cards):
        return False
    counts = Counter(cards)
    if any(n != 2 for n in counts.values()):
        return False
    positions = sorted(order.position[c] for c in counts)
    return all(b == a + 1 for a, b in pairwise(positions))


def max_tractor_pairs(pair_counts: Sequence[int], lead_lengths: Sequence[int]) -> int:
    """(a) of the follow rule: the most pairs held in disjoint tractors (≥ 2 pairs each, one
    pair per position) when each is matched to a different lead tractor at least as long.

    ``pair_counts[p]`` is how many pairs sit at position p.
    """
    if not lead_lengths:
        return 0
    return _max_packing(tuple(pair_counts), tuple(sorted(lead_lengths, reverse=True)))


@lru_cache(maxsize=65536)
def _max_packing(counts: tuple[int, ...], lengths: tuple[int, ...]) -> int:
    if not lengths:
        return 0
    limit = lengths[0]
    rest = lengths[1:]
    best = _max_packing(counts, rest)  # leave this lead tractor unmatched
    size = len(counts)
    for start in range(size):
        if not counts[start]:
            continue
        end = start
        while end + 1 < size and counts[end + 1] and end + 1 - start + 1 <= limit:
            end += 1
        for stop in range(start + 1, end + 1):
            length = stop - start + 1
            reduced = list(counts)
            for p in range(start, stop + 1):
                reduced[p] -= 1
            total = length + _max_packing(tuple(reduced), rest)
            if total > best:
                best = total
    return best


def pair_counts(cards: Iterable[Card], order: TrumpOrder) -> list[int]:
    """Pairs per position (index = position), for `max_tractor_pairs`."""
    counts = [0] * POSITIONS
    for p, cards_at in pairs_by_position(cards, order).items():
        counts[p] = len(cards_at)
    return counts
