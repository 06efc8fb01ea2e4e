"""One 四团 hand, from the deal to the result: turns, rounds, time-outs and 托管.

The rule concepts live in their own modules (`rounds`, `autoplay`, `show`, `legal`, `holding`,
`ending`); this class holds the state they share and dispatches actions.

>>> from engine.situan import Rules, SituanHand
>>> hand = SituanHand.from_seed(Rules.from_preset("nanchang"), seed=7)
>>> events = hand.apply(hand.legal_actions(hand.to_act)[0])
"""

from __future__ import annotations

from itertools import chain
from operator import mul, sub
from typing import Any

from engine.actions import Action, AnswerShow, Auto, Pass, PickShow, Play, StartShow, Timeout
from engine.cards import Card
from engine.dispatch import Dispatch
from engine.errors import IllegalAction
from engine.events import AutoChanged
from engine.game import Carry
from engine.situan import autoplay, ending, rounds, show
from engine.situan.combos import RANK_COUNT, RANK_POINTS, Combo
from engine.situan.deal import Deal, deal_from_seed
from engine.situan.events import SituanEvent
from engine.situan.holding import Holding
from engine.situan.legal import (
    auto_lead,
    legal_actions,
    legal_plays,
)
from engine.situan.phases import OVER, PLAY, SHOW_CONSENT, SHOW_PICK, Phase
from engine.situan.result import Dun, SituanResult
from engine.situan.rules import Rules
from engine.situan.series import next_carry, next_leader
from engine.situan.views import SituanView


class SituanHand:
    """The state of one 四团 hand. Mutated only by `apply`, which either raises
    `IllegalAction` and changes nothing, or applies the action and returns its events."""

    game = "situan"

    def __init__(
        self,
        rules: Rules,
        deal: Deal,
        first: int | None = None,
        carry: tuple[int, int] | None = None,
    ) -> None:
        self.rules = rules
        self.deal = deal
        first_by_deal = first is None
        if first is None:
            first = (
                deal.spade3_leader()
                if rules.first_leader == "spade3"
                else (deal.flip_leader() or 0)
            )
        self.first = first
        self.carry = carry if carry and (carry[0] or carry[1]) else None
        self.holdings = [Holding(seat, cards) for seat, cards in enumerate(deal.hands)]
        """Each seat's cards and the plays they make, kept as it plays (`Holding.take`)."""
        self.piles: list[list[list[Card]]] = [holding.piles for holding in self.holdings]
        """Each seat's cards by rank index (its holding's piles)."""
        self.counts: list[list[int]] = [holding.counts for holding in self.holdings]
        """Each seat's count of each rank (its holding's counts)."""
        self.hand_cards: list[tuple[Card, ...] | None] = [None, None, None, None]
        """`cards_of` each seat, made once after each change of its piles (`rounds.place`)."""
        self.dealt_counts = [counts.copy() for counts in self.counts]
        """Each seat's cards per rank index as dealt (`played_by`)."""
        self.held = [len(h) for h in deal.hands]
        self.holding_count = sum(1 for held in self.held if held)
        """How many seats hold cards."""
        self.next_holder = rounds.next_holders(self.held)
        """Per seat, the next in turn order still holding cards (`rounds.holding_after`)."""
        self.announced: list[int | None] = [
            held if held <= rules.announce_at else None for held in self.held
        ]
        """报牌: each seat's card count once it is public (≤ announce_at), else None."""
        self.bottom_points = sum(c.points for c in deal.bottom)
        self.hand_points = [sum(map(mul, counts, RANK_POINTS)) for counts in self.counts]
        self.dealt_duns: tuple[tuple[Dun, ...], ...] = tuple(
            tuple(ending.duns_in_counts(counts)) for counts in self.counts
        )
        self.played_duns: list[tuple[Dun, ...]] = [(), (), (), ()]
        """墩 played so far, per seat (tuples, replaced at each 墩, for views to share)."""
        chose = rules.first_leader == "flip" and first_by_deal
        self.flipped: Card | None = deal.flipped_card if chose else None
        """The card turned to choose the first leader, when one was: a match's later hands
        are led by the previous 上游, and nothing is turned for them."""
        self.played_counts = [0] * RANK_COUNT
        self.phase: Phase = PLAY
        self.over = False
        """Whether the phase is over (`ending.end`): asked before every decision, so kept
        rather than derived."""
        self.turn = first
        self.round_combo: Combo | None = None
        self.round_seat: int | None = None
        self.round_plays: list[tuple[int, Combo | None]] = []
        self.last_round: tuple[tuple[int, Combo | None], ...] = ()
        """The round finished last, whole (for the table to show until the next is on)."""
        self.plays: list[tuple[int, Combo | None]] = []
        """Every play and pass of the hand in order (public: the table saw each one)."""
        self.passes = 0
        self.table_points = 0
        self.finish: list[int] = []
        self.captured = [0, 0, 0, 0]
        self.show_by: int | None = None
        self.revealed: int | None = None
        self.show_seen: dict[int, tuple[Card, ...]] = {}
        self.show_refused = [False, False, False, False]
        """Per seat, whether its partner refused its 亮牌 (or let the time run out) in this
        hand: it may not ask again (`show_consent = partner`)."""
        self.timeouts = [0, 0, 0, 0]
        self.auto = [False, False, False, False]
        self.history: list[Action] = []
        self.result: SituanResult | None = None
        self.public_view: SituanView | None = None
        """The public view of the present moment, made at most once per action: the table
        message and the next seat's view both start from it (`apply` forgets it)."""

    @classmethod
    def from_seed(
        cls,
        rules: Rules,
        seed: int | str,
        first: int | None = None,
        carry: tuple[int, int] | None = None,
    ) -> SituanHand:
        return cls(rules, deal_from_seed(seed), first, carry)

    @classmethod
    def standing_where(cls, view: SituanView, deal: Deal) -> SituanHand:
        """A hand dealt ``deal`` (a sampled deal of what ``view``'s seat cannot see), standing
        where the view shows the table: its plays, the round on, the points taken, the 亮牌
        state. The ``hard`` player plays such hands out."""
        hand = cls(view.rules, deal, view.turn, view.carry)
        hand.dealt_duns = view.duns if len(view.duns) == 4 else hand.dealt_duns
        hand.played_counts = list(view.played_counts)
        hand.turn = view.turn
        hand.round_combo = view.round_combo
        hand.round_seat = view.round_seat
        hand.round_plays = list(view.round_plays)
        hand.plays = list(view.plays)
        passes = 0
        for _, combo in reversed(view.round_plays):
            if combo is not None:
                break
            passes += 1
        hand.passes = passes
        hand.table_points = view.table_points
        hand.finish = list(view.finish)
        hand.captured = list(view.captured)
        hand.show_by = view.show_by
        hand.show_refused = list(view.show_refused)
        hand.revealed = view.revealed
        return hand

    def fork(self) -> SituanHand:
        """A copy in the same state that plays on without touching this hand: what the
        rules' modules change in place is copied (each seat's holding, whose piles and
        counts the hand holds too), what they replace (tuples, combinations, frozen values)
        is shared. `copy.copy` and `copy.deepcopy` of a hand are its fork."""
        twin = object.__new__(SituanHand)
        state = twin.__dict__
        state.update(self.__dict__)
        twin.holdings = [holding.fork() for holding in self.holdings]
        twin.piles = [holding.piles for holding in twin.holdings]
        twin.counts = [holding.counts for holding in twin.holdings]
        for name in _FORKED_LISTS:
            state[name] = state[name].copy()
        twin.public_view = None
        return twin

    def __copy__(self) -> SituanHand:
        return self.fork()

    def __deepcopy__(self, memo: dict[int, Any]) -> SituanHand:
        twin = memo[id(self)] = self.fork()
        return twin

    def __getstate__(self) -> dict[str, Any]:
        """Pickled: the fields but the public view, made again when asked for. Each seat's
        holding is pickled as its piles and made again from them (`Holding.__reduce__`)."""
        return {**self.__dict__, "public_view": None}

    # ----------------------------------------------------------------- queries

    @property
    def to_act(self) -> int | None:
        """The seat the hand waits for: the player to move, or the seat a 亮牌 waits on (the
        partner for its consent; whoever picks the revealed hand)."""
        if self.phase is PLAY:
            return self.turn
        if self.phase == SHOW_CONSENT:
            return None if self.show_by is None else show.partner_of(self.show_by)
        return show.picker(self) if self.phase == SHOW_PICK else None

    @property
    def time_limit(self) -> int:
        return self.rules.turn_seconds

    @property
    def leading(self) -> bool:
        """Whether the seat to move opens a round (and so may not pass)."""
        return self.round_combo is None

    @property
    def can_pass(self) -> bool:
        return self.phase == PLAY and self.round_combo is not None

    def cards_of(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds, low rank first."""
        cards = self.hand_cards[seat]
        if cards is None:
            cards = self.hand_cards[seat] = tuple(chain.from_iterable(self.piles[seat]))
        return cards

    @property
    def played_by(self) -> list[tuple[int, ...]]:
        """Per seat and rank index, how many it has played (public: every play is): what it
        was dealt less what it holds."""
        pairs = zip(self.dealt_counts, self.counts, strict=True)
        return [tuple(map(sub, dealt, held)) for dealt, held in pairs]

    def rank_counts(self, seat: int) -> tuple[int, ...]:
        return tuple(self.counts[seat])

    def holding(self) -> list[int]:
        return [s for s in range(4) if self.held[s]]

    def legal_plays(self) -> list[Combo]:
        """Every combination the seat to move may play now (passing aside: see `can_pass`)."""
        return legal_plays(self)

    legal_actions = legal_actions
    """Every action a seat can take now (`engine.situan.legal`)."""

    def public_count(self, seat: int) -> int | None:
        """报牌: the card count when it is public (≤ announce_at), else None."""
        return self.announced[seat]

    def public_counts(self) -> list[int | None]:
        """`public_count` of every seat."""
        return list(self.announced)

    def view(self, seat: int | None) -> SituanView:
        """What ``seat`` may know (None: the public view that group rendering gets)."""
        public = self.public_view
        if public is None:
            public = self.public_view = SituanView(self)
        return public if seat is None else public.for_seat(self, seat)

    def next_carry(self) -> Carry:
        """The next hand is led by this hand's 上游 and carries a series that is undecided."""
        if self.result is None:
            raise ValueError("the hand is not over: nothing carries to the next one yet")
        return Carry(next_leader(self.result), next_carry(self.result))

    @property
    def match_goes_on(self) -> bool:
        """A series carried over is one game still being played."""
        return self.next_carry().team_totals is not None

    def start_record(self) -> dict[str, Any]:
        from engine.situan.record import start_record

        return start_record(self)

    # ----------------------------------------------------------------- actions

    def check(self, action: Action) -> None:
        """Raise `IllegalAction` if the rules refuse ``action``; change nothing."""
        _DISPATCH.check(self, action)

    def apply(self, action: Action) -> list[SituanEvent]:
        """Apply one action; raise `IllegalAction` (changing nothing) when the rules refuse it."""
        self.public_view = None
        kind = type(action)
        # Most actions: `_DISPATCH.apply`'s steps, without its look-ups (a play or pass the
        # engine listed has a seat; any other is checked for one, as `_DISPATCH` does).
        if kind is Pass:
            events = rounds.pass_turn(self, action)  # type: ignore[arg-type]
        elif kind is Play:
            events = rounds.play(self, action)  # type: ignore[arg-type]
        else:
            return _DISPATCH.apply(self, action)
        self.history.append(action)
        return events

    def record(self, action: Action) -> None:
        """Enter an applied action in the history (`engine.dispatch`)."""
        self.history.append(action)

    def check_running(self) -> None:
        if self.phase == OVER:
            raise IllegalAction("wrong_phase", "the hand is over", phase=self.phase)

    def own_action(self, seat: int, events: list[SituanEvent]) -> None:
        """Any action by the player takes them off 托管."""
        if self.auto[seat]:
            self.auto[seat] = False
            events.append(AutoChanged(seat, False))

    def auto_lead(self, seat: int) -> tuple[Combo, tuple[Card, ...]]:
        return auto_lead(self, seat)


_FORKED_LISTS = (
    "hand_cards",
    "held",
    "next_holder",
    "announced",
    "hand_points",
    "played_duns",
    "played_counts",
    "round_plays",
    "plays",
    "finish",
    "captured",
    "show_seen",
    "show_refused",
    "timeouts",
    "auto",
    "history",
)
"""The lists (and the dict of cards seen) that the rules' modules change in place (`fork`);
``dealt_counts`` is only read."""

_DISPATCH: Dispatch[SituanHand, SituanEvent] = Dispatch(
    "四团",
    checks={
        Play: rounds.check_play,
        Pass: rounds.check_pass,
        Timeout: autoplay.check_timeout,
        StartShow: show.check_start,
        AnswerShow: show.check_answer,
        PickShow: show.check_pick,
        Auto: autoplay.check_auto,
    },
    handlers={
        Play: rounds.play,
        Pass: rounds.pass_turn,
        Timeout: autoplay.timeout,
        StartShow: show.start,
        AnswerShow: show.answer,
        PickShow: show.pick,
        Auto: autoplay.set_auto,
    },
)
