"""What every heuristic 二七王 level does alike: each phase to its own decision, a bonus (冲关)
declared as soon as it may be, the lead by `engine.ai.erqiwang.leading` (a level may bring its
own declarer's plan), and every play kept among the engine's."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from engine.actions import Action, Bury, DeclareBonus, NameTrump, Play, listed_aside
from engine.ai.erqiwang.leading import lead_for
from engine.cards import Card
from engine.erqiwang.legal import listed_play
from engine.erqiwang.phases import BIDDING, BURY, PLAY, TRUMP_PHASE
from engine.erqiwang.views import ErqiwangView


class ErqiwangPolicy(ABC):
    """A heuristic 二七王 policy: `decide(view, legal)` returns one of the ``legal`` actions
    (or, while burying, which the engine cannot list, eight cards of its own hand). A level
    says how it bids, names trump, buries and follows (and may say how it leads)."""

    def decide(self, view: ErqiwangView, legal: Sequence[Action]) -> Action:
        seat = view.seat
        assert seat is not None and view.to_act == seat
        if view.phase == BIDDING:
            return self._bid(view, legal)
        if view.phase == TRUMP_PHASE:
            trump = NameTrump(seat, self._trump(view))
            return trump if trump in legal else next(a for a in legal if isinstance(a, NameTrump))
        if view.phase == BURY:
            return Bury(seat, self._bury(view))
        assert view.phase == PLAY
        declare = listed_aside(legal, DeclareBonus)
        if declare is not None:
            return declare
        wanted = self.play_for(view)
        # Every choice of this policy is among the engine's plays; the fallback keeps a
        # table from ever stalling should one not be.
        found = listed_play(legal, wanted)
        if found is not None:
            return found
        return next(a for a in legal if isinstance(a, Play))

    def play_for(self, view: ErqiwangView) -> tuple[Card, ...]:
        """The cards this policy plays now, without the engine's list of plays (for
        playouts: listing every discard of a long lead can take seconds)."""
        return self._follow(view) if view.trick else self._lead(view)

    def _lead(self, view: ErqiwangView) -> tuple[Card, ...]:
        return lead_for(view)

    @abstractmethod
    def _bid(self, view: ErqiwangView, legal: Sequence[Action]) -> Action: ...

    @abstractmethod
    def _trump(self, view: ErqiwangView) -> str:
        """The trump to name: a suit, or ``"none"``."""

    @abstractmethod
    def _bury(self, view: ErqiwangView) -> tuple[Card, ...]: ...

    @abstractmethod
    def _follow(self, view: ErqiwangView) -> tuple[Card, ...]: ...
