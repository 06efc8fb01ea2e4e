"""What a 二七王 seat may do now, listed (`legal_actions`), and the plays among it.

Plays of one or two identical cards are prebuilt per seat and card (most plays are), so that
listing them hands out shared values instead of building new ones.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, cast, overload

from engine.actions import Action, Auto, Bid, DeclareBonus, NameTrump, Pass, Play, Surrender
from engine.cards import ALL_CARDS, Card
from engine.erqiwang import bidding, bonus, declaring
from engine.erqiwang.follow import follow_error, legal_follows, listed_follow
from engine.erqiwang.leads import THROW_IF_UNBEATABLE, Threat, lead_parts, throw_candidates
from engine.erqiwang.order import TRUMP, TrumpOrder
from engine.erqiwang.phases import BIDDING, BURY, OVER, PLAY, TRUMP_PHASE

if TYPE_CHECKING:
    from engine.erqiwang.hand import ErqiwangHand

SINGLES: tuple[dict[Card, Play], ...] = tuple(
    {c: Play(seat, (c,)) for c in ALL_CARDS} for seat in range(4)
)
PAIRS: tuple[dict[Card, Play], ...] = tuple(
    {c: Play(seat, (c, c)) for c in ALL_CARDS} for seat in range(4)
)
PASSES = tuple(Pass(seat) for seat in range(4))
AUTO = tuple((Auto(seat, False), Auto(seat, True)) for seat in range(4))
"""``AUTO[seat][on]``."""
BIDS = tuple({points: Bid(seat, points) for points in range(0, 305, 5)} for seat in range(4))
SURRENDERS = tuple(Surrender(seat) for seat in range(4))
DECLARES = tuple(DeclareBonus(seat) for seat in range(4))
TRUMPS = tuple(
    {suit: NameTrump(seat, suit) for suit in ("S", "H", "C", "D", "none")} for seat in range(4)
)


class FollowChoice:
    """What a follow to a lead of several cards is chosen from, kept as it was when listed
    (the hand's cards are copied: the hand goes on)."""

    __slots__ = ("hand", "held", "lead", "lead_suit", "order")

    def __init__(self, hand: ErqiwangHand, seat: int) -> None:
        assert hand.lead_shape is not None and hand.lead_suit is not None
        self.hand = tuple(hand.hands[seat])
        self.held = tuple(hand.by_suit[seat].get(hand.lead_suit) or ())
        self.lead = hand.lead_shape
        self.lead_suit = hand.lead_suit
        self.order = hand.order

    def all(self) -> list[tuple[Card, ...]]:
        return list(legal_follows(self.hand, self.held, self.lead, self.lead_suit, self.order))

    def listed(self, cards: Sequence[Card]) -> tuple[Card, ...] | None:
        """These cards (in any order) as `all` lists them, or None if they are no legal
        follow: judged by the rule (`follow_error`), without listing every follow."""
        if len(cards) != self.lead.size:
            return None
        hand = self.hand
        if any(cards.count(c) > hand.count(c) for c in cards):  # not all of them held
            return None
        if follow_error(cards, self.held, self.lead, self.lead_suit, self.order) is not None:
            return None
        return listed_follow(cards, self.hand, self.held, self.lead, self.lead_suit, self.order)


class LegalActions(Sequence[Action]):
    """A seat's follows to a lead of several cards, then its other actions (托管, 冲关: never
    many). A lead of several cards can be answered in hundreds of ways and a caller usually
    wants one of them: the follows are listed only when the list is read (its length, an
    index, iteration), and whether a play is among them is judged by the rule
    (`FollowChoice.listed`)."""

    __slots__ = ("_listed", "_made", "follow", "others", "seat")

    def __init__(self, seat: int, follow: FollowChoice, others: list[Action]) -> None:
        self.seat = seat
        self.others = others
        self.follow = follow
        self._listed: list[tuple[Card, ...]] | None = None
        self._made: dict[int, Play] = {}

    @property
    def plays(self) -> list[tuple[Card, ...]]:
        """The follows' cards as listed."""
        listed = self._listed
        if listed is None:
            listed = self._listed = self.follow.all()
        return listed

    def _play_at(self, plays: list[tuple[Card, ...]], index: int) -> Play:
        made = self._made.get(index)
        if made is None:
            made = self._made[index] = Play(self.seat, plays[index])
        return made

    def play_of(self, cards: Sequence[Card]) -> Play | None:
        """The listed play of these cards in any order (None: no legal follow)."""
        listed = self.follow.listed(cards)
        return None if listed is None else Play(self.seat, listed)

    def __len__(self) -> int:
        return len(self.plays) + len(self.others)

    @overload
    def __getitem__(self, index: int) -> Action: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...
    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        plays = self.plays  # each length once: a caller may index many times
        count = len(plays)
        if type(index) is int and 0 <= index < count:  # most reads: one of the plays
            return self._play_at(plays, index)
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        size = count + len(self.others)
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError(index)
        if index >= count:
            return self.others[index - count]
        return self._play_at(plays, index)

    def __iter__(self) -> Iterator[Action]:
        for index in range(len(self)):
            yield self[index]

    def __contains__(self, action: object) -> bool:
        if isinstance(action, Play) and action.seat == self.seat and not action.ranks:
            return self.play_of(action.cards) == action
        return action in self.others


def listed_play(legal: Sequence[Action], cards: Sequence[Card]) -> Play | None:
    """The listed play of exactly these cards, in any order (None: not listed). Cheap even
    when a follow can be made hundreds of ways: the follows are not listed for it."""
    if type(legal) is LegalActions:  # not `isinstance`: an ABC
        return legal.play_of(cards)
    size = len(cards)
    if size == 1:  # most plays: no sorting needed
        only = cards[0]
        for action in legal:
            if isinstance(action, Play) and len(action.cards) == 1 and action.cards[0] is only:
                return action
        return None
    key = sorted(map(id, cards))
    for action in legal:
        same_size = isinstance(action, Play) and len(action.cards) == size
        if same_size and sorted(map(id, action.cards)) == key:  # type: ignore[union-attr]
            return action  # type: ignore[return-value]
    return None


def legal_plays(hand: ErqiwangHand) -> list[tuple[Card, ...]]:
    """Legal leads (singles, pairs, tractors, the natural throws) or every legal follow."""
    if hand.phase != PLAY:
        return []
    return [p.cards for p in play_actions(hand, hand.turn)]


def play_actions(hand: ErqiwangHand, seat: int) -> list[Play]:
    """The plays of the seat to move: leads (singles, pairs, tractors and the natural
    throws; any other allowed throw passes `check` too) or every legal follow."""
    lead = hand.lead_shape
    if lead is None:
        return cast("list[Play]", _lead_actions(hand, seat))  # no actions aside: plays only
    if lead.size == 1:
        return _single_follows(hand, seat)
    return [Play(seat, p) for p in FollowChoice(hand, seat).all()]


def _lead_actions(hand: ErqiwangHand, seat: int, aside: Sequence[Action] = ()) -> list[Action]:
    """The leader's plays — per suit its singles, then pairs and tractors; then the natural
    throws — and ``aside`` after them, in one new list."""
    plays: list[Action] = []
    for singles, paired in (hand.leads[seat] or seat_leads(hand, seat)).values():
        plays += singles.values()
        if paired:
            plays += paired
    trumps = hand.by_suit[seat].get(TRUMP)
    if trumps is not None and len(trumps) > 1:  # a throw is two cards at least
        plays += _throw_plays(hand, seat, trumps)
    plays += aside
    return plays


def _single_follows(hand: ErqiwangHand, seat: int) -> list[Play]:
    """Every card of the led suit, or of the hand when void of it (a single led)."""
    assert hand.lead_suit is not None
    held = (hand.leads[seat] or seat_leads(hand, seat)).get(hand.lead_suit)
    if held is not None and held[0]:
        return list(held[0].values())
    return list(map(SINGLES[seat].__getitem__, dict.fromkeys(hand.hands[seat])))


SuitLeads = tuple[dict[Card, Play], list[Play]]
"""One following-suit's leads: its singles by card, in the order the cards are first held,
then its pairs and tractors (`suit_leads`'s order)."""


def seat_leads(hand: ErqiwangHand, seat: int) -> dict[str, SuitLeads]:
    """The seat's leads per following-suit, kept in `ErqiwangHand.leads`, which a card played
    updates."""
    order = hand.order
    made = hand.leads[seat] = {
        suit: suit_leads(seat, cards, order) for suit, cards in hand.by_suit[seat].items()
    }
    return made


def suit_leads(seat: int, cards: list[Card], order: TrumpOrder) -> SuitLeads:
    """The singles, pairs and tractors of one following-suit as plays."""
    singles = SINGLES[seat]
    # A card comes once, where first held (a repeated key keeps its place); a comprehension
    # makes a few cards' dict in less than half the time `dict(zip(...))` takes.
    by_card = {c: singles[c] for c in cards}
    if len(by_card) == len(cards):
        return by_card, []  # no pair, so no tractor either
    _, paired, tractors = lead_parts(cards, order)
    plays = list(map(PAIRS[seat].__getitem__, paired))  # `map`: no comprehension frame
    for tractor in tractors:
        plays.append(Play(seat, tractor))
    return by_card, plays


def _throw_plays(hand: ErqiwangHand, seat: int, trumps: list[Card]) -> list[Play]:
    """The natural throws as plays. They depend only on the seat's trumps (which only shrink,
    so their count tells them apart) and on the others' threats, which most trumps played
    leave as they were: kept under that key rather than judged again at every lead."""
    kept = hand.throws[seat]
    if kept is not None and hand.throws_current[seat]:  # no trump played since
        return kept[2]
    others = (
        threats_in_sight(hand, seat)
        if hand.rules.failed_throw == "smallest" and hand.rules.throw == THROW_IF_UNBEATABLE
        else hand.others_threats(seat)
    )
    hand.throws_current[seat] = True
    if kept is not None and kept[0] == len(trumps) and kept[1] == others:
        return kept[2]
    own = hand.own_threat(seat)
    candidates = throw_candidates(trumps, hand.order, hand.rules.throw, others, own)
    plays = []
    for throw in candidates:  # a loop: a comprehension would make `seat` a cell at every call
        plays.append(Play(seat, throw))
    hand.throws[seat] = (len(trumps), others, plays)
    return plays


def threats_in_sight(hand: ErqiwangHand, seat: int) -> list[Threat]:
    """The trumps that could beat a throw as far as ``seat`` can tell — under
    ``failed_throw = smallest`` a listed throw must not tell the thrower what the others hold
    (a failed one tells everyone at once). Every trump it has not seen may be anywhere else:
    one threat made of all of them, or none (-1) once the three others are announced void (无主)."""
    nothing: list[Threat] = [(-1, frozenset())]
    if all(hand.void_announced[s] for s in range(4) if s != seat):
        return nothing
    unseen = Counter(c for h in hand.deal.hands for c in h)
    unseen.update(hand.deal.bottom)
    unseen.subtract(hand.hands[seat])
    unseen.subtract(hand.played_cards)
    if seat == hand.declarer:
        unseen.subtract(hand.buried)
    suit, position = hand.order.suit, hand.order.position
    trumps = [c for c, n in unseen.items() if n > 0 and suit[c] == TRUMP]
    if not trumps:
        return nothing
    top = max(position[c] for c in trumps)
    return [(top, frozenset(position[c] for c in trumps if unseen[c] >= 2))]


def legal_actions(hand: ErqiwangHand, seat: int) -> Sequence[Action]:
    """For the seat the hand waits for, every choice of its phase that can be listed (bids
    and the pass, trump suits, plays; burying is checked, not listed), then surrender where
    allowed; for every seat, 冲关 in its window and 托管 on or off."""
    phase = hand.phase
    if phase == PLAY and seat == hand.turn and hand.has_played[seat]:
        # The common case: past its first card a seat may neither surrender nor declare.
        lead = hand.lead_shape
        auto = AUTO[seat][not hand.auto[seat]]
        if lead is not None and lead.size == 1:  # most decisions: `_single_follows`, inlined
            held = (hand.leads[seat] or seat_leads(hand, seat)).get(hand.lead_suit)  # type: ignore[arg-type]
            if held is not None and (singles := held[0]):
                return [*singles.values(), auto]
            # Void of the led suit: any card.
            return [*map(SINGLES[seat].__getitem__, dict.fromkeys(hand.hands[seat])), auto]
        if lead is None:
            return _lead_actions(hand, seat, (auto,))
        return LegalActions(seat, FollowChoice(hand, seat), [auto])
    if phase == BIDDING and seat == hand.turn:  # the bids and the pass; no surrender yet
        choices: list[Action] = list(map(BIDS[seat].__getitem__, bidding.bid_range(hand)))
        if bidding.may_pass(hand):
            choices.append(PASSES[seat])
        choices.append(AUTO[seat][not hand.auto[seat]])
        return choices
    if phase == OVER:
        return []
    actions: list[Action] = []
    follows: FollowChoice | None = None
    leads = False
    if seat == hand.to_act:
        if phase == PLAY:
            if hand.lead_shape is None:
                leads = True
            elif hand.lead_shape.size > 1:
                follows = FollowChoice(hand, seat)
            else:
                actions = play_actions(hand, seat)  # type: ignore[assignment]
        elif phase == BIDDING:
            actions = list(map(BIDS[seat].__getitem__, bidding.allowed_bids(hand)))
            if bidding.may_pass(hand):
                actions.append(PASSES[seat])
        elif phase == TRUMP_PHASE:
            actions = list(map(TRUMPS[seat].__getitem__, declaring.trump_choices(hand)))
        if phase != BIDDING and _may_surrender(hand, seat):
            actions.append(SURRENDERS[seat])
    held_bonus = phase in (BURY, PLAY) and bonus.window_open(hand, seat)
    if held_bonus and bonus.bonus_of(hand.hands[seat], hand.trump) is not None:
        actions.append(DECLARES[seat])
    actions.append(AUTO[seat][not hand.auto[seat]])
    if follows is not None:
        return LegalActions(seat, follows, actions)
    if leads:
        return _lead_actions(hand, seat, actions)
    return actions


def _may_surrender(hand: ErqiwangHand, seat: int) -> bool:
    return (
        seat == hand.declarer
        and hand.bid is not None
        and hand.bid > hand.rules.surrender_above
        and not any(hand.has_played)
    )
