"""One 二七王 hand: bidding, the bottom, trump, burying, 冲关, the tricks and settlement.

The rule concepts live in their own modules (`bidding`, `declaring`, `bonus`, `tricks`,
`autoplay`, `ending`); this class holds the state they share and dispatches actions.
"""

from __future__ import annotations

from typing import Any

from engine.actions import (
    Action,
    Auto,
    Bid,
    Bury,
    DeclareBonus,
    NameTrump,
    Pass,
    Play,
    Surrender,
    Timeout,
)
from engine.cards import Card
from engine.dispatch import Dispatch
from engine.erqiwang import autoplay, bidding, bonus, declaring, ending, tricks
from engine.erqiwang.bonus import Bonus
from engine.erqiwang.deal import Deal, deal_from_seed
from engine.erqiwang.events import ErqiwangEvent, HandEnded
from engine.erqiwang.leads import NO_THREAT, Threat, threat_of
from engine.erqiwang.legal import SuitLeads, legal_actions, legal_plays, suit_leads
from engine.erqiwang.order import BIDDING_ORDER, TRUMP, TrumpOrder
from engine.erqiwang.phases import BIDDING, BURY, OVER, PLAY, TRUMP_PHASE, Phase
from engine.erqiwang.result import ErqiwangResult
from engine.erqiwang.rules import Rules
from engine.erqiwang.series import next_first_bidder
from engine.erqiwang.shapes import Shape
from engine.erqiwang.views import ErqiwangView
from engine.errors import IllegalAction
from engine.events import AutoChanged
from engine.game import Carry

__all__ = ["BIDDING", "BURY", "OVER", "PLAY", "TRUMP_PHASE", "ErqiwangHand"]


class ErqiwangHand:
    """The state of one 二七王 hand. `apply` either raises `IllegalAction` and changes nothing,
    or applies the action and returns its events."""

    game = "erqiwang"

    # Slots, not an instance dict: a hand holds more fields than CPython shares the keys of
    # (30), and an attribute read from such a dict costs more; a play reads dozens.
    __slots__ = (
        "_held", "_threats", "auto", "best", "bid", "bids", "bonuses", "bottom_size", "buried",
        "by_suit", "deal", "declarer", "first", "hands", "has_played", "history", "last_trick",
        "lead_shape", "lead_suit", "leads", "lowest", "order", "over", "passed", "phase",
        "played_cards", "public_view", "result", "rules", "surrendered", "throws",
        "throws_current", "timeouts", "to_act", "trick", "trick_points",
        "trick_points_for_defenders", "tricks", "tricks_done", "trump", "trump_counts",
        "trump_named", "turn", "void_announced",
    )  # fmt: skip

    def __init__(self, rules: Rules, deal: Deal, first: int = 0) -> None:
        self.rules = rules
        self.deal = deal
        self.first = first
        self.bottom_size = len(deal.bottom)
        """底牌 and 扣底: 8 cards with two decks, 6 with one."""
        self.hands: list[list[Card]] = [list(h) for h in deal.hands]
        self._held: list[tuple[Card, ...] | None] = [None] * 4
        """Each seat's cards as held (`cards_of`), kept until they or the trump order change: every
        view of the seat asks for them, and most steps change one hand at most."""
        self.by_suit: list[dict[str, list[Card]]] = [{}, {}, {}, {}]
        """Each seat's cards by following-suit, kept from trump naming on."""
        self.leads: list[dict[str, SuitLeads] | None] = [None] * 4
        """Each seat's leads per following-suit, in `by_suit`'s order, made when first asked
        for (`legal.seat_leads`): the suit's singles by card, in the order the cards are first
        held (the order they are listed in), and its pairs and tractors. A card played leaves
        its single; a pair broken makes the suit's entry again (the card is now first held
        where its other copy is, and the pairs changed)."""
        self._threats: list[Threat] = [NO_THREAT] * 4
        """Each seat's trump threat (for judging throws), from trump naming on: made again
        when a trump played takes its top trump or breaks a pair, the only changes to it."""
        self.throws: list[tuple[int, list[Threat], list[Play]] | None] = [None] * 4
        """Each seat's natural trump throws, with the trump count and the others' threats they
        were judged for (`legal._throw_plays`)."""
        self.throws_current = [False] * 4
        """Whether no trump was played since the seat's throws were judged or found still
        good: then they are handed out without looking at the threats."""
        self.phase: Phase = BIDDING
        self.turn = first
        """Whose turn it is to bid or play; the declarer's while it names trump and buries."""
        self.to_act: int | None = first
        """The seat the table waits for: ``turn``, or None once the hand is over. Kept as
        a field, set with ``turn`` (`pass_turn`, `end`), since every step reads it."""
        self.over = False
        """Whether the hand is over (`end`)."""
        self.bids: list[tuple[int, int | None]] = []
        self.passed = [False] * 4
        self.lowest: tuple[int, int] | None = None  # (points, seat)
        self.declarer: int | None = None
        self.bid: int | None = None
        self.trump: str | None = None
        self.trump_named = False
        self.order: TrumpOrder = BIDDING_ORDER
        self.buried: tuple[Card, ...] = ()
        self.surrendered = False
        self.has_played = [False] * 4
        self.bonuses: dict[int, Bonus] = {}
        self.trick: list[tuple[int, tuple[Card, ...]]] = []
        self.trick_points = 0
        """The card points in ``trick``, counted as its cards are played."""
        self.lead_shape: Shape | None = None
        self.lead_suit: str | None = None
        self.best: tuple[int, bool, int] | None = None  # (seat, is trump ruff, top position)
        self.last_trick: list[tuple[int, tuple[Card, ...]]] = []
        self.tricks: list[list[tuple[int, tuple[Card, ...]]]] = []
        """Every finished trick, in order (public: all cards are played face up)."""
        self.tricks_done = 0
        self.trick_points_for_defenders = 0
        self.played_cards: list[Card] = []
        self.void_announced = [False] * 4
        self.trump_counts: tuple[tuple[int, int, bool], ...] | None = None
        self.timeouts = [0, 0, 0, 0]
        self.auto = [False, False, False, False]
        self.history: list[Action] = []
        self.result: ErqiwangResult | None = None
        self.public_view: ErqiwangView | None = None
        """The public view of the present moment, made at most once per action: the table
        message and the next seat's view both start from it (`apply` forgets it)."""

    @classmethod
    def from_seed(cls, rules: Rules, seed: int | str, first: int = 0) -> ErqiwangHand:
        return cls(rules, deal_from_seed(seed, rules.decks), first)

    def fork(self) -> ErqiwangHand:
        """A copy in the same state that plays on without touching this hand (the ``hard``
        player plays every candidate out from one sampled deal). What the rules' modules
        change in place is copied; what they replace (tuples, frozen values, finished
        tricks) is shared. `copy.copy` and `copy.deepcopy` of a hand are its fork."""
        twin = object.__new__(ErqiwangHand)
        for name in ErqiwangHand.__slots__:
            setattr(twin, name, getattr(self, name))
        twin.hands = [list(cards) for cards in self.hands]
        twin.by_suit = [{s: list(cards) for s, cards in groups.items()} for groups in self.by_suit]
        twin.leads = [_forked_leads(leads) for leads in self.leads]
        for name in _FORKED_LISTS:
            setattr(twin, name, list(getattr(self, name)))
        twin.bonuses = dict(self.bonuses)
        twin.public_view = None
        return twin

    def __copy__(self) -> ErqiwangHand:
        return self.fork()

    def __deepcopy__(self, memo: dict[int, Any]) -> ErqiwangHand:
        twin = memo[id(self)] = self.fork()
        return twin

    def __getstate__(self) -> dict[str, Any]:
        """Pickled: the fields but the public view (made again when asked for); the other
        caches load as they are, as a fork keeps them."""
        state = {name: getattr(self, name) for name in ErqiwangHand.__slots__}
        state["public_view"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            setattr(self, name, value)

    # ----------------------------------------------------------------- queries

    @property
    def time_limit(self) -> int:
        return self.rules.bury_seconds if self.phase == BURY else self.rules.turn_seconds

    def cards_of(self, seat: int) -> tuple[Card, ...]:
        held = self._held[seat]
        if held is None:
            held = self._held[seat] = tuple(self.order.sorted_cards(self.hands[seat]))
        return held

    def own_threat(self, seat: int) -> Threat:
        """The seat's own trump threat (its top trump and pair positions), kept current."""
        return self._threats[seat]

    def others_threats(self, seat: int) -> list[Threat]:
        """The trump threats of the three other players (a throw is judged against them)."""
        threats = self._threats
        return threats[:seat] + threats[seat + 1 :]

    def allowed_bids(self) -> list[int]:
        """The bids the seat to act may make now (highest first)."""
        return bidding.allowed_bids(self)

    def may_pass_bidding(self) -> bool:
        return bidding.may_pass(self)

    def legal_plays(self) -> list[tuple[Card, ...]]:
        return legal_plays(self)

    legal_actions = legal_actions
    """Every choice a seat can make now that can be listed (`engine.erqiwang.legal`)."""

    def bonus_window_open(self, seat: int) -> bool:
        return bonus.window_open(self, seat)

    def trump_held(self, seat: int) -> list[Card]:
        return self.suit_cards(seat, TRUMP)

    def suit_cards(self, seat: int, suit: str) -> list[Card]:
        """The seat's cards of one following-suit (once trump is named)."""
        return self.by_suit[seat].get(suit, [])

    def smallest_play(self, seat: int) -> tuple[Card, ...]:
        return autoplay.smallest_play(self, seat)

    def view(self, seat: int | None) -> ErqiwangView:
        public = self.public_view
        if public is None:
            public = self.public_view = ErqiwangView(self)
        return public if seat is None else public.for_seat(self, seat)

    def next_carry(self) -> Carry:
        """The declarer bids first again if it did not lose, else the seat after it; a hand
        everyone passed is dealt again with the same first bidder."""
        if self.result is None:
            raise ValueError("the hand is not over: nothing carries to the next one yet")
        return Carry(next_first_bidder(self.result.to_json(), self.first))

    @property
    def match_goes_on(self) -> bool:
        """Every 二七王 hand is settled whole."""
        return False

    def start_record(self) -> dict[str, Any]:
        from engine.erqiwang.record import start_record

        return start_record(self)

    # ----------------------------------------------------------------- the cards

    def group_by_suit(self) -> None:
        """Sort every hand into following-suits, once trump is named."""
        suit = self.order.suit
        for seat in range(4):
            groups: dict[str, list[Card]] = {}
            for c in self.hands[seat]:  # no `setdefault`: it would make a list at every card
                following = suit[c]
                held = groups.get(following)
                if held is None:
                    groups[following] = [c]
                else:
                    held.append(c)
            self.by_suit[seat] = groups
        self.leads = [None] * 4
        self._threats = [threat_of(groups.get(TRUMP, []), self.order) for groups in self.by_suit]
        self.throws = [None] * 4
        self.throws_current = [False] * 4
        self._held = [None] * 4  # the order they are held in changes with the trump

    def remove_cards(self, seat: int, cards: tuple[Card, ...]) -> bool:
        """Take cards out of a hand (`remove_card`); whether a trump left."""
        suit = self.order.suit
        played_trump = False
        for c in cards:
            following = suit[c]
            self.remove_card(seat, c, following)
            if following == TRUMP:
                played_trump = True
        return played_trump

    def remove_card(self, seat: int, c: Card, following: str) -> None:
        """Take one card (of this following-suit) out of a hand, dropping or updating the
        caches it touches."""
        held = self.by_suit[seat][following]
        held.remove(c)
        self.card_left(seat, c, following, held)

    def card_left(self, seat: int, c: Card, following: str, held: list[Card]) -> None:
        """The rest of `remove_card` once ``c`` is out of ``held``, the seat's cards of its
        following-suit (a single played takes it out there first: where it finds the card
        held)."""
        self.hands[seat].remove(c)
        self._held[seat] = None
        leads = self.leads[seat]
        if leads is None:
            pair_broken = c in held
        else:
            singles, paired = leads[following]
            # A suit without pairs has no pair to break (most suits): no second copy to look for.
            pair_broken = bool(paired) and c in held
            if pair_broken:
                leads[following] = suit_leads(seat, held, self.order)
            else:  # the last copy: its single goes, the suit's pairs stay as they were
                del singles[c]
        if following == TRUMP:
            self.throws_current = [False] * 4  # everyone's throws are judged against it
            # The seat's threat is its top trump and its trump pairs: only its top trump
            # played, or a pair broken, can change it — and its top trump alone, unpaired,
            # leaves the pairs as they were.
            if pair_broken:
                self._threats[seat] = threat_of(held, self.order)
            else:
                top, pairs = self._threats[seat]
                position = self.order.position
                if position[c] >= top:
                    self._threats[seat] = (
                        (max(map(position.__getitem__, held)), pairs) if held else NO_THREAT
                    )

    def add_cards(self, seat: int, cards: tuple[Card, ...]) -> None:
        """The declarer takes the bottom into its hand."""
        self.hands[seat].extend(cards)
        self._held[seat] = None

    def missing(self, seat: int, cards: tuple[Card, ...]) -> list[Card]:
        """The cards of ``cards`` the seat does not hold (as many times as they are short),
        each looked for among the seat's cards of its following-suit, not the whole hand (a
        play or a bury: trump is named)."""
        groups, suit = self.by_suit[seat], self.order.suit
        short: list[Card] = []
        for c in dict.fromkeys(cards):  # a play is a few cards: counting them beats a Counter
            held = groups.get(suit.get(c), ())  # type: ignore[arg-type]  # not a card: none held
            lacking = cards.count(c) - held.count(c)
            if lacking > 0:
                short += [c] * lacking
        return short

    def announce_voids(self, events: list[ErqiwangEvent]) -> None:
        tricks.announce_voids(self, events)

    # ----------------------------------------------------------------- actions

    def check(self, action: Action) -> None:
        """Raise `IllegalAction` if the rules refuse ``action``; change nothing."""
        _DISPATCH.check(self, action)

    def apply(self, action: Action) -> list[ErqiwangEvent]:
        self.public_view = None
        if type(action) is Play:  # most actions: `tricks.play` checks its seat and records it
            return tricks.play(self, action)
        return _DISPATCH.apply(self, action)

    def record(self, action: Action) -> None:
        """Enter an applied action in the history (`engine.dispatch`)."""
        self.history.append(action)

    def require_running(self) -> None:
        if self.phase == OVER:
            raise IllegalAction("wrong_phase", "the hand is over", phase=self.phase)

    def require_phase(self, *phases: Phase) -> None:
        self.require_running()
        if self.phase not in phases:
            raise IllegalAction(
                "wrong_phase", f"not now: the hand is in its {self.phase} phase", phase=self.phase
            )

    def require_turn(self, seat: int) -> None:
        if seat != self.to_act:
            raise IllegalAction(
                "not_your_turn", f"it is seat {self.to_act}'s turn", seat=seat, turn=self.to_act
            )

    def own_action(self, seat: int, events: list[ErqiwangEvent]) -> None:
        """Any action by the player takes them off 托管."""
        if self.auto[seat]:
            self.auto[seat] = False
            events.append(AutoChanged(seat, False))

    def pass_turn(self, seat: int) -> None:
        """The turn goes to ``seat``."""
        self.turn = self.to_act = seat

    def end(self) -> None:
        """The hand is over: nobody to wait for."""
        self.phase = OVER
        self.over = True
        self.to_act = None

    def finish(self, events: list[ErqiwangEvent]) -> None:
        self.end()
        self.result = ending.settle(self)
        events.append(HandEnded(self.result))

    def _check_auto(self, action: Auto) -> None:
        if not isinstance(action.on, bool):
            raise IllegalAction("bad_action", "auto needs on: true or false", on=action.on)
        self.require_running()

    def _on_auto(self, action: Auto) -> list[ErqiwangEvent]:
        self._check_auto(action)
        if self.auto[action.seat] == action.on:
            return []
        self.auto[action.seat] = action.on
        return [AutoChanged(action.seat, action.on)]


def _forked_leads(leads: dict[str, SuitLeads] | None) -> dict[str, SuitLeads] | None:
    """A seat's leads for a fork: its singles change in place, its pairs and tractors are
    replaced."""
    if leads is None:
        return None
    return {suit: (dict(singles), paired) for suit, (singles, paired) in leads.items()}


_FORKED_LISTS = (
    "_held",
    "_threats",
    "throws",
    "throws_current",
    "bids",
    "passed",
    "has_played",
    "trick",
    "tricks",
    "played_cards",
    "void_announced",
    "timeouts",
    "auto",
    "history",
)
"""The lists of per-seat or per-trick state that a hand changes in place (`fork`)."""

_DISPATCH: Dispatch[ErqiwangHand, ErqiwangEvent] = Dispatch(
    "二七王",
    checks={
        Bid: bidding.check_bid,
        Pass: bidding.check_pass,
        NameTrump: declaring.check_trump,
        Bury: declaring.check_bury,
        Surrender: declaring.check_surrender,
        DeclareBonus: bonus.check_declare,
        Play: tricks.check_play,
        Auto: ErqiwangHand._check_auto,
        Timeout: autoplay.check_timeout,
    },
    handlers={
        Bid: bidding.bid,
        Pass: bidding.pass_bid,
        NameTrump: declaring.name_trump,
        Bury: declaring.bury,
        Surrender: declaring.surrender,
        DeclareBonus: bonus.declare,
        Auto: ErqiwangHand._on_auto,
        Timeout: autoplay.timeout,
    },
)
