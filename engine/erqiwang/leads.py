"""Leading in 二七王: singles, pairs, tractors and throws (甩牌), and which throws are allowed."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter

from engine.cards import Card
from engine.erqiwang.order import TRUMP, TrumpOrder
from engine.erqiwang.shapes import Shape, shape_of

THROW_IF_UNBEATABLE = "trump_if_unbeatable"
THROW_WHEN_OTHERS_VOID = "trump_when_others_void"


class LeadRefusal(Exception):
    """A lead the rules refuse: ``code`` and a sentence naming the reason. ``lowest``: for a
    failed throw (a trump throw the ``throw`` option does not allow here), the component
    that ``failed_throw = smallest`` plays instead (`lowest_beatable_part`)."""

    def __init__(
        self, code: str, message: str, lowest: Component | None = None, **facts: object
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.lowest = lowest
        self.facts = facts


Component = tuple[int, int, tuple[Card, ...]]
"""One component of a throw: its top position (for a tractor, its highest pair's), its size
in cards, and its cards."""


def check_lead(
    play: Sequence[Card],
    order: TrumpOrder,
    throw_policy: str,
    others: Callable[[], Sequence[Threat]],
) -> Shape:
    """The shape of a legal lead; raises `LeadRefusal` for an illegal one.

    ``others()`` gives the trump threats of the three other players (the table knows their
    hands; a throw is judged against what they hold); it is only asked for a throw.
    """
    suits = set(map(order.suit.__getitem__, play))
    if len(suits) > 1:
        raise LeadRefusal("not_a_combination", "a lead is of one suit (all trumps count as one)")
    suit = suits.pop()
    shape = shape_of(play, order)
    if shape.components == 1:
        return shape
    if suit != TRUMP:
        raise LeadRefusal(
            "throw_not_allowed",
            "side-suit cards may only be led as a single, a pair or a tractor",
            reason="side_suit",
        )
    if throw_policy == THROW_WHEN_OTHERS_VOID:
        threats = others()
        if any(top >= 0 for top, _ in threats):
            raise LeadRefusal(
                "throw_not_allowed",
                "trumps may be thrown only when no other player holds trump",
                lowest_beatable_part(shape, threats),
                reason="others_hold_trump",
            )
        return shape
    if throw_policy != THROW_IF_UNBEATABLE:
        raise LeadRefusal(
            "throw_not_allowed", "throws are not allowed at this table", reason="no_throws"
        )
    threats = others()
    beaten = TrumpThreats(threats).beatable(shape)
    if beaten is not None:
        raise LeadRefusal(
            "throw_not_allowed",
            f"the throw is not safe: another player can beat its {beaten}",
            lowest_beatable_part(shape, threats),
            component=beaten,
            reason="beatable",
            kind=beaten.split()[0],
            cards=beaten.split()[1:],
        )
    return shape


def components(shape: Shape) -> list[Component]:
    """A throw's components: its tractors, pairs and singles."""
    parts: list[Component] = [(top, 2 * length, cards) for length, top, cards in shape.tractors]
    parts += [(position, 2, (c, c)) for position, c in shape.pairs]
    parts += [(position, 1, (c,)) for position, c in shape.singles]
    return parts


def lowest_beatable_part(shape: Shape, others: Sequence[Threat]) -> Component:
    """What a failed throw plays under ``failed_throw = smallest``: of the components another
    player could beat, the lowest by the follow order (a tractor by its highest pair), among
    equal the shortest, then the lowest card by the smallest-play order (suit ♦ < ♣ < ♥ < ♠).
    A throw failed only because others hold trump (``trump_when_others_void``) with no
    component beatable plays its lowest component."""
    threats = TrumpThreats(others)
    parts = components(shape)
    beatable = [part for part in parts if threats.beatable(_alone(part)) is not None]
    return min(beatable or parts, key=_lowness)


def _lowness(part: Component) -> tuple[int, int, int]:
    top, size, cards = part
    return (top, size, _SUITS_UP.find(cards[0].suit))


_SUITS_UP = "DCHS"
"""Suits low to high where nothing else tells two cards apart (the smallest-play order)."""


def _alone(part: Component) -> Shape:
    """One component as a shape of its own."""
    top, size, cards = part
    if size == 1:
        return Shape([], [], [(top, cards[0])], 1)
    if size == 2:
        return Shape([], [(top, cards[0])], [], 2)
    return Shape([(size // 2, top, cards)], [], [], size)


Threat = tuple[int, frozenset[int]]
"""What one other player holds in trumps: the top trump position (-1: none) and the
positions of its trump pairs."""
NO_THREAT: Threat = (-1, frozenset())


def threat_of(trumps: Sequence[Card], order: TrumpOrder) -> Threat:
    if not trumps:
        return NO_THREAT
    position = order.position
    seen: set[Card] = set()
    paired: set[int] = set()
    for c in trumps:  # `pairs_by_position`'s positions, without grouping the cards
        if c in seen:
            paired.add(position[c])
        else:
            seen.add(c)
    return (max(map(position.__getitem__, trumps)), frozenset(paired))


class TrumpThreats:
    """The other players' trumps, for judging a throw component by component."""

    __slots__ = ("players",)

    def __init__(self, players: Sequence[Threat]) -> None:
        self.players = [p for p in players if p[0] >= 0]

    def beatable(self, shape: Shape) -> str | None:
        """Describe the first component of a trump throw that another player could beat."""
        for top, pair_positions in self.players:
            for length, high, cards in shape.tractors:
                if _holds_tractor_above(pair_positions, length, high):
                    return "tractor " + " ".join(c.text for c in cards)
            for position, c in shape.pairs:
                if any(p > position for p in pair_positions):
                    return f"pair {c.text} {c.text}"
            for position, c in shape.singles:
                if top > position:
                    return f"single {c.text}"
        return None


def _may_hold_safe_throw(
    trumps: Sequence[Card], order: TrumpOrder, others: Sequence[Threat], own: Threat | None
) -> bool:
    """A cheap test before the full one: a safe throw needs two safe components — unpaired
    cards that no other trump tops, or pairs above every other player's trump pairs."""
    others_top = max(map(itemgetter(0), others))
    # ``own``, the leader's threat where kept, settles most leads without their cards: below
    # the others' top trump no card of it is safe unpaired, and none of its pairs is safe
    # below the others' top pair.
    if own is not None and own[0] < others_top and (not own[1] or max(own[1]) < top_pair(others)):
        return False
    position = order.position
    seen: set[Card] = set()
    paired: set[Card] = set()
    safe = 0  # unpaired cards at or above every other trump, counted in one pass
    for c in trumps:
        if c in seen:
            if c not in paired and position[c] >= others_top:
                safe -= 1  # counted as unpaired when first seen
            paired.add(c)
        else:
            seen.add(c)
            if position[c] >= others_top:
                safe += 1
    if safe >= 2:
        return True
    if paired:
        others_top_pair = top_pair(others)
        for c in paired:
            if position[c] >= others_top_pair:
                safe += 1
    return safe >= 2


def top_pair(threats: Sequence[Threat]) -> int:
    """The position of the highest trump pair among these players' (-1: none holds one)."""
    return max(map(max, filter(None, map(itemgetter(1), threats))), default=-1)


def _holds_tractor_above(pair_positions: frozenset[int], length: int, top: int) -> bool:
    """A tractor of ``length`` pairs whose top pair sits above ``top``."""
    return any(
        high > top and all(high - k in pair_positions for k in range(length))
        for high in pair_positions
    )


def suit_leads(cards: Sequence[Card], order: TrumpOrder) -> list[tuple[Card, ...]]:
    """Every single, pair and tractor among cards of one following-suit."""
    distinct, pairs, tractors = lead_parts(cards, order)
    return [(c,) for c in distinct] + [(c, c) for c in pairs] + tractors


def lead_parts(
    cards: Sequence[Card], order: TrumpOrder
) -> tuple[list[Card], list[Card], list[tuple[Card, ...]]]:
    """The leads of one following-suit by kind: each distinct card (a single), each paired
    card (a pair), and every tractor."""
    distinct: list[Card] = []
    seen: set[Card] = set()
    pairs: list[Card] = []
    for c in cards:
        if c in seen:
            pairs.append(c)
        else:
            seen.add(c)
            distinct.append(c)
    tractors: list[tuple[Card, ...]] = []
    if len(pairs) >= 2:
        slots: dict[int, list[Card]] = {}
        for c in pairs:
            slots.setdefault(order.position[c], []).append(c)
        for top in slots:
            if top - 1 in slots:
                _extend_tractors(slots, top, [], tractors)
    return distinct, pairs, tractors


def _extend_tractors(
    slots: dict[int, list[Card]], position: int, above: list[Card], out: list[tuple[Card, ...]]
) -> None:
    """Tractors whose top pair is at the start of ``above``, grown downwards from ``position``."""
    for c in slots.get(position, ()):
        chain = [*above, c]
        if len(chain) >= 2:
            out.append(tuple(x for x in chain for _ in range(2)))
        _extend_tractors(slots, position - 1, chain, out)


def throw_candidates(
    trumps: Sequence[Card],
    order: TrumpOrder,
    throw_policy: str,
    others: Sequence[Threat],
    own: Threat | None = None,
) -> list[tuple[Card, ...]]:
    """The natural throws: all trumps when the others hold none, or every unbeatable trump
    component together. (Any other allowed throw is accepted by the table too; these are the
    ones worth offering.) ``trumps``: the leader's; ``others``: the other players' threats;
    ``own``: the leader's (`threat_of` its trumps), where the caller keeps it."""
    if len(trumps) < 2 or throw_policy not in (THROW_IF_UNBEATABLE, THROW_WHEN_OTHERS_VOID):
        return []
    if throw_policy == THROW_IF_UNBEATABLE and not _may_hold_safe_throw(trumps, order, others, own):
        return []
    shape = shape_of(trumps, order)
    if shape.components < 2:
        return []
    if throw_policy == THROW_WHEN_OTHERS_VOID:
        return [] if any(top >= 0 for top, _ in others) else [tuple(trumps)]
    # Each component judged alone, as `TrumpThreats.beatable` judges it: a single is beaten by
    # a higher trump, a pair by a higher pair, a tractor by a longer-reaching one above it.
    holding = [pairs for top, pairs in others if top >= 0 and pairs]
    top_trump = max(map(itemgetter(0), others), default=-1)
    others_top_pair = top_pair(others)
    safe: list[Card] = []
    for length, top, cards in shape.tractors:
        for pairs in holding:
            if _holds_tractor_above(pairs, length, top):
                break
        else:
            safe.extend(cards)
    for position, c in shape.pairs:
        if others_top_pair <= position:
            safe.extend((c, c))
    safe_singles: list[Card] = []
    for position, c in shape.singles:
        if top_trump <= position:
            safe_singles.append(c)
    if len(safe) + len(safe_singles) < 2:
        return []
    # Put together, safe components can only merge (adjacent pairs into a tractor whose top
    # pair was already above every other player's pairs), so the whole stays unbeatable; a
    # single merges with nothing, so with one the throw is two components at least.
    if safe_singles:
        return [tuple(safe + safe_singles)]
    return [tuple(safe)] if shape_of(safe, order).components > 1 else []
