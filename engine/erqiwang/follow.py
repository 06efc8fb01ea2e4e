"""Following a lead in 二七王: which plays are legal, all of them, and the smallest.

With at least as many cards of the led suit as the lead, a follow is legal iff it is that many
led-suit cards whose follow score (a, b) is the best any such choice reaches. As
a + b = min(pairs, pairs in the lead), that is: a(P) = a(H) and min(pairs(P), L) = min(pairs(H), L)
for the follower's led-suit cards H. Legal follows are therefore built, not searched for: a
tractor choice reaching a(H), further pairs up to the target, then any other cards of the suit.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations, compress

from engine.cards import Card
from engine.erqiwang.order import TrumpOrder
from engine.erqiwang.shapes import Shape, max_tractor_pairs, pair_counts, pairs_by_position


class FollowTarget:
    """What a follower's led-suit cards H demand of a follow to a lead."""

    __slots__ = ("a", "lead_lengths", "lead_pairs", "pairs")

    def __init__(self, suit_cards: Sequence[Card], order: TrumpOrder, lead: Shape) -> None:
        self.lead_lengths = [t[0] for t in lead.tractors]
        self.lead_pairs = lead.pair_total
        counts = pair_counts(suit_cards, order)
        self.a = max_tractor_pairs(counts, self.lead_lengths) if self.lead_lengths else 0
        self.pairs = min(sum(counts), self.lead_pairs)

    def met_by(self, play: Sequence[Card], order: TrumpOrder) -> bool:
        counts = pair_counts(play, order)
        if min(sum(counts), self.lead_pairs) != self.pairs:
            return False
        if not self.lead_lengths:
            return True
        return max_tractor_pairs(counts, self.lead_lengths) == self.a


def follow_error(
    play: Sequence[Card], held: Sequence[Card], lead: Shape, lead_suit: str, order: TrumpOrder
) -> str | None:
    """Why a follow is illegal (``wrong_count``, ``must_follow_suit``, ``must_follow_shape``),
    or None when it is legal. ``play`` is known to be in the hand; ``held`` are the hand's
    cards of the led suit."""
    n = lead.size
    if len(play) != n:
        return "wrong_count"
    suit = order.suit
    if n == 1:
        return None if suit[play[0]] == lead_suit or not held else "must_follow_suit"
    # Counted in a loop: a comprehension here would make `suit` and `lead_suit` cells, which
    # Python 3.11 then builds at every call of the function, whichever branch it takes.
    in_suit = 0
    for c in play:
        if suit[c] == lead_suit:
            in_suit += 1
    if len(held) < n:
        return None if in_suit == len(held) else "must_follow_suit"
    if in_suit != n:
        return "must_follow_suit"
    if lead.pair_total == 0:
        return None
    if n == 2:  # a pair led: a pair if one is held
        return None if play[0] is play[1] or len(set(held)) == len(held) else "must_follow_shape"
    if not FollowTarget(held, order, lead).met_by(play, order):
        return "must_follow_shape"
    return None


def _multiset_combinations(pool: Counter[Card], size: int) -> Iterator[tuple[Card, ...]]:
    """Every distinct choice of ``size`` cards from a multiset of cards."""
    if size == 0:
        yield ()
        return
    if size == 1 or all(n == 1 for n in pool.values()):
        yield from combinations(pool, size)
        return
    items = sorted(pool.items(), key=lambda item: item[0].text)
    if size == 2:  # the common case (a pair led to a short suit), in walk's order
        for index, (c, available) in enumerate(items):
            if available >= 2:
                yield (c, c)
            for d, _ in items[index + 1 :]:
                yield (c, d)
        return

    # Each card's copies taken most first, then the rest from the cards after it. The choices
    # from card ``index`` on with ``left`` to take are the same wherever the walk reaches
    # them: made once each (a void follow to a throw reaches them hundreds of times).
    made: dict[tuple[int, int], list[tuple[Card, ...]]] = {}

    def walk(index: int, left: int) -> list[tuple[Card, ...]]:
        if left == 0:
            return [()]
        if index == len(items):
            return []
        found = made.get((index, left))
        if found is None:
            c, available = items[index]
            found = []
            for take in range(min(available, left), -1, -1):
                taken = (c,) * take
                found += [taken + rest for rest in walk(index + 1, left - take)]
            made[index, left] = found
        return found

    yield from walk(0, size)


def _tractor_choices(
    pair_slots: dict[int, list[Card]], lengths: Sequence[int], wanted: int
) -> Iterator[list[Card]]:
    """Every way to pick disjoint tractors (one per lead tractor at most, no longer than it)
    holding exactly ``wanted`` pairs; yields the pair cards used (one card per pair)."""
    if wanted == 0:
        yield []
        return
    if not lengths:
        return
    limit, rest = lengths[0], lengths[1:]
    yield from _tractor_choices(pair_slots, rest, wanted)
    positions = sorted(pair_slots)
    for start in positions:
        for length in range(2, min(limit, wanted) + 1):
            span = range(start, start + length)
            if not all(pair_slots.get(p) for p in span):
                break
            for picked in _pick_one_per_position(pair_slots, list(span)):
                remaining = {p: list(cs) for p, cs in pair_slots.items()}
                for p, c in zip(span, picked, strict=True):
                    remaining[p].remove(c)
                for more in _tractor_choices(remaining, rest, wanted - length):
                    yield picked + more


def _pick_one_per_position(
    pair_slots: dict[int, list[Card]], span: list[int]
) -> Iterator[list[Card]]:
    if not span:
        yield []
        return
    for c in pair_slots[span[0]]:
        for rest in _pick_one_per_position(pair_slots, span[1:]):
            yield [c, *rest]


def legal_follows(
    hand: Sequence[Card], held: Sequence[Card], lead: Shape, lead_suit: str, order: TrumpOrder
) -> Iterator[tuple[Card, ...]]:
    """Every legal follow once, built from the rule, not by filtering subsets.

    ``held`` are the hand's cards of the led suit."""
    if lead.size == 1:
        yield from ((c,) for c in dict.fromkeys(held or hand))
        return
    if lead.size == 2 and len(held) >= 2:
        distinct = dict.fromkeys(held)  # in first-held order, as everything listed here
        if len(distinct) == len(held):  # no pair: any two of the suit
            yield from combinations(distinct, 2)
            return
        once: set[Card] = set()
        twice: set[Card] = set()
        for c in held:
            if c in once:
                twice.add(c)
            else:
                once.add(c)
        for c in distinct:  # each pair, by its first card
            if c in twice:
                yield (c, c)
        return
    if len(held) < lead.size:  # all of the suit, then any filler: distinct by construction
        # The cards of other suits, counted in the hand's order (no comprehension: see
        # `follow_error`).
        others = Counter(compress(hand, map(lead_suit.__ne__, map(order.suit.__getitem__, hand))))
        suit_cards = tuple(held)  # made once: often a hundred fillers or more
        for filler in _multiset_combinations(others, lead.size - len(held)):
            yield suit_cards + filler
        return
    seen: set[tuple[Card, ...]] = set()
    for play in _structured_follows(held, lead, order):
        key = tuple(sorted(play, key=lambda c: c.text))
        if key not in seen:
            seen.add(key)
            yield key


def listed_follow(
    play: Sequence[Card],
    hand: Sequence[Card],
    held: Sequence[Card],
    lead: Shape,
    lead_suit: str,
    order: TrumpOrder,
) -> tuple[Card, ...]:
    """A legal follow's cards in the order `legal_follows` lists them (given in any order),
    so that one play can be found in the list without building the list."""
    if lead.size == 1:
        return tuple(play)
    if lead.size == 2 and len(held) >= 2:  # a pair, or two cards by first place in ``held``
        if play[0] is play[1]:
            return tuple(play)
        place = {c: i for i, c in reversed(list(enumerate(held)))}
        return tuple(sorted(play, key=place.__getitem__))
    if len(held) < lead.size:  # all of the suit in ``held``'s order, then the filler
        suit = order.suit
        fillers = [c for c in play if suit[c] != lead_suit]
        pool = Counter(c for c in hand if suit[c] != lead_suit)
        if len(fillers) > 1 and any(n > 1 for n in pool.values()):
            fillers.sort(key=lambda c: c.text)  # `_multiset_combinations` walks by text
        else:  # `combinations` of the pool: by first place in the hand
            place = {c: i for i, c in reversed(list(enumerate(pool)))}
            fillers.sort(key=place.__getitem__)
        return tuple(held) + tuple(fillers)
    return tuple(sorted(play, key=lambda c: c.text))


def _structured_follows(
    held: Sequence[Card], lead: Shape, order: TrumpOrder
) -> Iterator[tuple[Card, ...]]:
    """Follows from a suit held at least as long as the lead: each structure, then any
    filler of the suit (different structures may reach the same cards)."""
    n = lead.size
    for structure in follow_structures(held, lead, order):
        rest = Counter(held)
        rest.subtract(structure)
        for filler in _multiset_combinations(+rest, n - len(structure)):
            yield structure + filler


def follow_structures(
    held: Sequence[Card], lead: Shape, order: TrumpOrder
) -> Iterator[tuple[Card, ...]]:
    """The required part of every legal follow: tractors reaching a(H), then further pairs."""
    if lead.pair_total == 0:
        yield ()
        return
    target = FollowTarget(held, order, lead)
    slots = pairs_by_position(held, order)
    lengths = sorted(target.lead_lengths, reverse=True)
    for tractor_cards in _tractor_choices(slots, lengths, target.a):
        free = [c for cs in slots.values() for c in cs if c not in tractor_cards]
        for extra in combinations(free, target.pairs - target.a):
            chosen = tractor_cards + list(extra)
            yield tuple(c for c in chosen for _ in range(2))


def smallest_follow(
    hand: Sequence[Card], held: Sequence[Card], lead: Shape, lead_suit: str, order: TrumpOrder
) -> tuple[Card, ...]:
    """托管: the legal follow whose highest card is lowest (then the next, then suits)."""
    n = lead.size
    suit = order.suit
    key = order.key
    if n == 1:  # a single led: the lowest card of the suit, or of the hand when void
        return (min(held or hand, key=key.__getitem__),)
    if len(held) < n:
        others = sorted((c for c in hand if suit[c] != lead_suit), key=key.__getitem__)
        return tuple(held) + tuple(others[: n - len(held)])
    best: tuple[Card, ...] | None = None
    best_key: tuple[object, ...] | None = None
    for structure in follow_structures(held, lead, order):
        rest = Counter(held)
        rest.subtract(structure)
        fillers = sorted((+rest).elements(), key=key.__getitem__)[: n - len(structure)]
        play = structure + tuple(fillers)
        play_key = smallness_key(play, order)
        if best_key is None or play_key < best_key:
            best, best_key = play, play_key
    assert best is not None
    return best


def smallness_key(play: Sequence[Card], order: TrumpOrder) -> tuple[object, ...]:
    """Order of plays for 托管: by highest card (side < trump, then level), then the next
    highest, …, then suits ♦ < ♣ < ♥ < ♠."""
    key = order.key
    if len(play) == 1:  # most plays: no ordering to do
        level, position, suit = key[play[0]]
        return (((level, position),), (suit,))
    ranked = sorted(play, key=key.__getitem__, reverse=True)
    return (tuple(key[c][:2] for c in ranked), tuple(key[c][2] for c in ranked))
