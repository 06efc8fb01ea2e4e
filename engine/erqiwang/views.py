"""What a 二七王 seat may know of the hand (`ErqiwangView`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.cards import Card
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
    )  # fmt: skip

    def __init__(self, state: ErqiwangHand, seat: int | None) -> None:
        self.seat = seat
        self.rules = state.rules
        self.order = state.order
        self.phase = state.phase
        self.first = state.first
        self.to_act = state.to_act
        self.hand: tuple[Card, ...] = () if seat is None else state.hand(seat)
        self.bids = list(state.bids)
        self.declarer = state.declarer
        self.bid = state.bid
        self.trump = state.trump
        self.trump_named = state.trump_named
        self.bottom_shown: tuple[Card, ...] = (
            state.deal.bottom if state.declarer is not None else ()
        )
        visible = state.over or (seat is not None and seat == state.declarer)
        self.buried: tuple[Card, ...] = state.buried if visible else ()
        self.trick = list(state.trick)
        self.last_trick = list(state.last_trick)
        self.played_cards = tuple(state.played_cards)
        self.counts = [len(h) for h in state.hands]
        self.defender_points = state.trick_points_for_defenders
        self.bonuses = {s: (b.name, b.value, b.cards) for s, b in sorted(state.bonuses.items())}
        self.void = list(state.void_announced)
        self.trump_counts = state.trump_counts
        self.auto = list(state.auto)
        self.timeouts = list(state.timeouts)
        self.tricks_done = state.tricks_done
        self.tricks = list(state.tricks)
        self.best_seat = None if state.best is None else state.best[0]
        """Who is winning the trick in progress."""
        self.result: ErqiwangResult | None = state.result

    def known_cards(self) -> tuple[Card, ...]:
        """Every card this view shows of any hand (for the no-leak checks)."""
        cards = list(self.hand) + list(self.bottom_shown) + list(self.buried)
        for _, _, shown in self.bonuses.values():
            cards.extend(shown)
        return tuple(cards)
