"""What a 二七王 seat may know of the hand (`ErqiwangView`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.cards import Card
from engine.erqiwang.phases import OVER
from engine.erqiwang.result import ErqiwangResult

if TYPE_CHECKING:
    from engine.erqiwang.hand import ErqiwangHand


class ErqiwangView:
    """What a seat may know: its own hand; the bids; the bottom once shown (亮底牌); the buried
    cards only as the declarer (everyone once the hand is over); every card played; declared
    冲关 with their cards; 无主 and trump-count announcements; points won by the defenders."""

    __slots__ = (
        "auto",
        "best_seat",
        "bid",
        "bids",
        "bonuses",
        "bottom_shown",
        "buried",
        "counts",
        "declarer",
        "defender_points",
        "first",
        "hand",
        "last_trick",
        "order",
        "phase",
        "played_cards",
        "result",
        "rules",
        "seat",
        "timeouts",
        "to_act",
        "trick",
        "tricks",
        "tricks_done",
        "trump",
        "trump_counts",
        "trump_named",
        "void",
    )

    def __init__(self, state: ErqiwangHand) -> None:
        """The public view (no seat): what everyone may know."""
        self.seat: int | None = None
        self.rules = state.rules
        self.order = state.order
        self.phase = state.phase
        self.first = state.first
        self.to_act = state.to_act
        self.hand: tuple[Card, ...] = ()
        self.bids = list(state.bids)
        self.declarer = state.declarer
        self.bid = state.bid
        self.trump = state.trump
        self.trump_named = state.trump_named
        self.bottom_shown: tuple[Card, ...] = (
            state.deal.bottom if state.declarer is not None else ()
        )
        self.buried: tuple[Card, ...] = state.buried if state.phase == OVER else ()
        self.trick = list(state.trick)
        self.last_trick = list(state.last_trick)
        self.played_cards = tuple(state.played_cards)
        self.counts = list(map(len, state.hands))
        self.defender_points = state.trick_points_for_defenders
        self.bonuses = (
            {s: (b.name, b.value, b.cards) for s, b in sorted(state.bonuses.items())}
            if state.bonuses
            else {}
        )
        self.void = list(state.void_announced)
        self.trump_counts = state.trump_counts
        self.auto = list(state.auto)
        self.timeouts = list(state.timeouts)
        self.tricks_done = state.tricks_done
        self.tricks = list(state.tricks)
        self.best_seat = None if state.best is None else state.best[0]
        """Who is winning the trick in progress."""
        self.result: ErqiwangResult | None = state.result

    def for_seat(self, state: ErqiwangHand, seat: int) -> ErqiwangView:
        """What ``seat`` knows of the same moment: this public view's parts, shared (a view
        is read, never written), and the seat's own cards, with the buried ones for the
        declarer."""
        view = ErqiwangView.__new__(ErqiwangView)
        view.rules = self.rules
        view.order = self.order
        view.phase = self.phase
        view.first = self.first
        view.to_act = self.to_act
        view.bids = self.bids
        view.declarer = self.declarer
        view.bid = self.bid
        view.trump = self.trump
        view.trump_named = self.trump_named
        view.bottom_shown = self.bottom_shown
        view.trick = self.trick
        view.last_trick = self.last_trick
        view.played_cards = self.played_cards
        view.counts = self.counts
        view.defender_points = self.defender_points
        view.bonuses = self.bonuses
        view.void = self.void
        view.trump_counts = self.trump_counts
        view.auto = self.auto
        view.timeouts = self.timeouts
        view.tricks_done = self.tricks_done
        view.tricks = self.tricks
        view.best_seat = self.best_seat
        view.result = self.result
        view.seat = seat
        view.hand = state.cards_of(seat)
        view.buried = state.buried if seat == state.declarer else self.buried
        return view

    def known_cards(self) -> tuple[Card, ...]:
        """Every card this view shows of any hand (for the no-leak checks)."""
        cards = list(self.hand) + list(self.bottom_shown) + list(self.buried)
        for _, _, shown in self.bonuses.values():
            cards.extend(shown)
        return tuple(cards)
