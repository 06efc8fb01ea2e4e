"""What a 四团 seat may know of the hand (`SituanView`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.cards import Card
from engine.situan.combos import Combo
from engine.situan.phases import OVER
from engine.situan.result import Dun, SituanResult

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
        "hand_counts",
        "held",
        "last_round",
        "leading",
        "phase",
        "played_by",
        "played_counts",
        "plays",
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
        "show_refused",
        "show_seen",
        "table_points",
        "timeouts",
        "turn",
    )

    def __init__(self, state: SituanHand) -> None:
        """The public view (no seat): what everyone may know."""
        self.seat: int | None = None
        self.rules = state.rules
        self.phase = state.phase
        self.turn = state.turn
        self.first = state.first
        self.leading = state.round_combo is None
        self.hand: tuple[Card, ...] = ()
        self.hand_counts: tuple[int, ...] = ()
        """The seat's cards as a count per rank index (suits never matter in 四团)."""
        self.announce_at = state.rules.announce_at
        self.show_multiplier = state.rules.show_multiplier
        self.counts = state.public_counts()
        self.round_plays: list[tuple[int, Combo | None]] = list(state.round_plays)
        self.last_round = state.last_round
        self.plays: tuple[tuple[int, Combo | None], ...] = tuple(state.plays)
        """Every play and pass so far, in order: what a player at the table has seen, kept
        for the ``hard`` player's reading of the hidden hands (`engine.ai.situan.reading`)."""
        self.round_combo = state.round_combo
        self.round_seat = state.round_seat
        self.table_points = state.table_points
        self.captured = list(state.captured)
        self.finish = list(state.finish)
        self.played_counts = list(state.played_counts)
        # Every play is public, so what each seat has played, and how many cards it still
        # holds, is known to all (報牌 only says it aloud): kept here for the AI's search.
        self.played_by: tuple[tuple[int, ...], ...] = tuple(state.played_by)
        self.held = list(state.held)
        self.carry = state.carry
        """A carried-over series' team totals (A, B), public."""
        self.revealed = state.revealed
        self.revealed_hand = () if state.revealed is None else state.cards_of(state.revealed)
        self.show_by = state.show_by
        self.show_seen: dict[int, tuple[Card, ...]] = {}
        self.show_refused: tuple[bool, ...] = tuple(state.show_refused)
        """Per seat, whether its partner refused its 亮牌 in this hand (public: the table saw
        the refusal)."""
        self.duns: tuple[tuple[Dun, ...], ...] = (
            state.dealt_duns if state.rules.dun_counted == "dealt" else tuple(state.played_duns)
        )
        self.flipped: Card | None = state.flipped
        self.auto = list(state.auto)
        self.timeouts = list(state.timeouts)
        self.result: SituanResult | None = state.result
        # The bottom is turned over when the hand ends (its points go to 上游).
        self.bottom: tuple[Card, ...] = state.deal.bottom if state.phase == OVER else ()

    def for_seat(self, state: SituanHand, seat: int) -> SituanView:
        """What ``seat`` knows of the same moment: this public view's parts, shared (a view
        is read, never written), and the seat's own cards and its 亮牌 sight."""
        view = SituanView.__new__(SituanView)
        view.rules = self.rules
        view.phase = self.phase
        view.turn = self.turn
        view.first = self.first
        view.leading = self.leading
        view.announce_at = self.announce_at
        view.show_multiplier = self.show_multiplier
        view.counts = self.counts
        view.round_plays = self.round_plays
        view.last_round = self.last_round
        view.plays = self.plays
        view.round_combo = self.round_combo
        view.round_seat = self.round_seat
        view.table_points = self.table_points
        view.captured = self.captured
        view.finish = self.finish
        view.played_counts = self.played_counts
        view.played_by = self.played_by
        view.held = self.held
        view.carry = self.carry
        view.revealed = self.revealed
        view.revealed_hand = self.revealed_hand
        view.show_by = self.show_by
        view.show_refused = self.show_refused
        view.duns = self.duns
        view.flipped = self.flipped
        view.auto = self.auto
        view.timeouts = self.timeouts
        view.result = self.result
        view.bottom = self.bottom
        view.seat = seat
        view.hand = state.cards_of(seat)
        view.hand_counts = state.rank_counts(seat)
        view.show_seen = {}
        if seat in state.show_seen:
            partner = (seat + 2) & 3
            view.show_seen = {partner: state.cards_of(partner)}
        return view

    def known_cards(self) -> tuple[Card, ...]:
        """Every card this view shows, of any seat (for the no-leak checks)."""
        seen = list(self.hand) + list(self.revealed_hand) + list(self.bottom)
        for cards in self.show_seen.values():
            seen.extend(cards)
        return tuple(seen)
