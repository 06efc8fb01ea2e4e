"""What a 四团 seat may know of the hand (`SituanView`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.cards import Card
from engine.situan.combos import Combo
from engine.situan.result import SituanResult

if TYPE_CHECKING:
    from engine.situan.hand import SituanHand


class SituanView:
    """A seat's knowledge of the hand: its own cards, and what is public to everyone
    (counts ≤ announce_at, every play, captured points, a revealed hand, 亮墩 under
    ``dun_counted = dealt``, the flipped card that chose the first leader), plus the
    partner's hand as seen in its own 亮牌 — kept current, since every card the partner has
    played since is public anyway."""

    __slots__ = (
        "announce_at",
        "auto",
        "bottom",
        "captured",
        "carry",
        "counts",
        "duns",
        "finish",
        "first",
        "flipped",
        "hand",
        "held",
        "last_round",
        "leading",
        "phase",
        "played_by",
        "played_counts",
        "result",
        "revealed",
        "revealed_hand",
        "round_combo",
        "round_plays",
        "round_seat",
        "rules",
        "seat",
        "show_by",
        "show_multiplier",
        "show_seen",
        "table_points",
        "timeouts",
        "turn",
    )  # fmt: skip

    def __init__(self, state: SituanHand, seat: int | None) -> None:
        self.seat = seat
        self.rules = state.rules
        self.phase = state.phase
        self.turn = state.turn
        self.first = state.first
        self.leading = state.leading
        self.hand: tuple[Card, ...] = () if seat is None else state.hand(seat)
        self.announce_at = state.rules.announce_at
        self.show_multiplier = state.rules.show_multiplier
        self.counts = state.public_counts()
        self.round_plays: list[tuple[int, Combo | None]] = list(state.round_plays)
        self.last_round = state.last_round
        self.round_combo = state.round_combo
        self.round_seat = state.round_seat
        self.table_points = state.table_points
        self.captured = list(state.captured)
        self.finish = list(state.finish)
        self.played_counts = list(state.played_counts)
        # Every play is public, so what each seat has played, and how many cards it still
        # holds, is known to all (報牌 only says it aloud): kept here for the AI's search.
        self.played_by: list[list[int]] = list(map(list, state.played_by))
        self.held = list(state.held)
        self.carry = state.carry
        """A carried-over series' team totals (A, B), public."""
        self.revealed = state.revealed
        self.revealed_hand = () if state.revealed is None else state.hand(state.revealed)
        self.show_by = state.show_by
        self.show_seen: dict[int, tuple[Card, ...]] = {}
        if seat is not None and seat in state.show_seen:
            partner = (seat + 2) & 3
            self.show_seen = {partner: state.hand(partner)}
        self.duns = (
            list(map(list, state.dealt_duns))
            if state.rules.dun_counted == "dealt"
            else list(map(list, state.played_duns))
        )
        self.flipped: Card | None = (
            state.deal.flipped_card if state.rules.first_leader == "flip" else None
        )
        self.auto = list(state.auto)
        self.timeouts = list(state.timeouts)
        self.result: SituanResult | None = state.result
        # The bottom is turned over when the hand ends (its points go to 上游).
        self.bottom: tuple[Card, ...] = state.deal.bottom if state.over else ()

    def known_cards(self) -> tuple[Card, ...]:
        """Every card this view shows, of any seat (for the no-leak checks)."""
        seen = list(self.hand) + list(self.revealed_hand) + list(self.bottom)
        for cards in self.show_seen.values():
            seen.extend(cards)
        return tuple(seen)
