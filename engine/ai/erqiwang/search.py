"""The ``hard`` 二七王 player: the candidate plays weighed by playouts on sampled deals
(`engine.ai.erqiwang.sampling`), every seat played by the ``normal`` player; as declarer, the
trump and the bury likewise (`engine.ai.erqiwang.declaring`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.actions import Action, Bury, DeclareBonus, NameTrump, Play
from engine.ai.erqiwang.candidates import erqiwang_candidates
from engine.ai.erqiwang.declaring import (
    DECLARING_BUDGETS,
    bury_candidates,
    declaring_playout,
    trump_candidates,
)
from engine.ai.erqiwang.normal import ErqiwangAI
from engine.ai.erqiwang.sampling import sampled_hand
from engine.ai.search_decision import MAX_CANDIDATES, Search
from engine.erqiwang.bonus import bonus_of, window_open
from engine.erqiwang.hand import ErqiwangHand
from engine.erqiwang.phases import PLAY as ERQIWANG_PLAY
from engine.erqiwang.views import ErqiwangView
from engine.errors import IllegalAction

CONTESTED_BUDGETS = 3.0
"""Further budgets a contested play may take: at the budget a 二七王 playout is long (every
trick to the end) and a decision sees only some eight sampled deals, too few to tell a
better play by one won hand in eight from luck."""


class ErqiwangSearchAI(Search):
    """``hard`` 二七王: determinized playouts of the candidate trumps, buries and plays
    (bidding is the ``normal`` player's)."""

    extension = CONTESTED_BUDGETS
    work_playouts = 45
    """The budget's sampled deals measured in CPU time (3.4 ms each, deals 0-3: median 36
    iterations, a contested play taking its further budgets)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.policy = ErqiwangAI()

    def decide(self, view: ErqiwangView, legal: Sequence[Action]) -> Action:
        fallback = self.policy.decide(view, legal)
        if isinstance(fallback, (NameTrump, Bury)):
            return self._declare(view, fallback)
        if view.phase != ERQIWANG_PLAY or not isinstance(fallback, Play):
            return self.unweighed(fallback)
        seat = view.seat
        assert seat is not None
        candidates = erqiwang_candidates(view, legal, fallback, MAX_CANDIDATES)
        if len(candidates) <= 1:
            return self.unweighed(fallback)
        rng = random.Random(f"{self.seed}:{seat}:{len(view.played_cards)}:{view.trick}")

        # Every candidate meets the same sampled deal (the search resets the generator to
        # the same state for each): it is dealt and replayed once, and each playout forks it.
        drawn: list[Any] = [None, None]  # the generator's state, the deal drawn from it

        def playout(rng: random.Random, action: Action) -> float | None:
            state = rng.getstate()
            if drawn[0] != state:
                drawn[0], drawn[1] = state, sampled_hand(view, rng)
            sampled: ErqiwangHand | None = drawn[1]
            if sampled is None:
                return None
            hand = sampled.fork()
            try:  # a throw allowed at the real table may be refused in a sampled deal
                hand.apply(action)
            except IllegalAction:
                return None
            return _played_out(hand, seat, self.policy)

        return self._choose(candidates, fallback, rng, playout)

    def _declare(self, view: ErqiwangView, fallback: NameTrump | Bury) -> Action:
        """The trump or the bury, weighed over sampled deals of the defenders' hands."""
        if isinstance(fallback, NameTrump):
            candidates = trump_candidates(view, fallback)
        else:
            candidates = bury_candidates(view, fallback, MAX_CANDIDATES)
        if len(candidates) <= 1:
            return self.unweighed(fallback)
        seat = view.seat
        assert seat is not None
        rng = random.Random(f"{self.seed}:{seat}:{view.phase}")
        playout = declaring_playout(view, lambda hand: _played_out(hand, seat, self.policy))
        return self._choose(candidates, fallback, rng, playout, DECLARING_BUDGETS)


def _played_out(hand: ErqiwangHand, seat: int, policy: ErqiwangAI) -> float:
    """The hand played to its end by ``policy`` in every seat, valued for ``seat``."""
    while not hand.over:
        actor = hand.to_act
        assert actor is not None
        _erqiwang_step(hand, actor, policy)
    return _erqiwang_value(hand, seat)


def _erqiwang_step(hand: ErqiwangHand, actor: int, policy: ErqiwangAI) -> None:
    """One playout step by the ``normal`` policy, without listing every legal play."""
    if hand.phase != ERQIWANG_PLAY:
        hand.apply(policy.decide(hand.view(actor), hand.legal_actions(actor)))
        return
    if window_open(hand, actor) and bonus_of(hand.hands[actor], hand.trump) is not None:
        hand.apply(DeclareBonus(actor))
    try:
        hand.apply(Play(actor, policy.play_for(hand.view(actor))))
    except IllegalAction:  # a throw the sampled hands refuse: the smallest play instead
        hand.apply(Play(actor, hand.smallest_play(actor)))


RAMP = 30
"""Card points past the bid (two decks; half with one) at which a playout counts as a whole
win or loss: nearer results count in part."""


def _erqiwang_value(hand: ErqiwangHand, seat: int) -> float:
    """Valued for ``seat``: a win or a loss, in part when it was by few points — a play that
    turns close results into safer ones counts, not only one that flips a result."""
    result = hand.result
    if result is None or result.declarer is None:
        return 0.0
    bid = result.bid or 0
    ramp = RAMP * getattr(hand.rules, "decks", 2) / 2
    if result.declarer_won:
        value = min(1.0, max(5, bid - result.defender_points) / ramp)
    else:
        value = -min(1.0, (result.defender_points - bid + 5) / ramp)
    return value if seat == result.declarer else -value
