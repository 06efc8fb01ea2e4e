"""What one step of a table asks for, in order: what to store, then what to send."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.views.outgoing import Outgoing

if TYPE_CHECKING:
    from bot.table.hint_book import HintAsked
from bot.community.skill_ratings import RatedSeat

LedgerLine = tuple[str, str, str, bool, str]
"""(player key, name, amount, whether first out, bonus) of one seat's settled hand."""


@dataclass
class Effects:
    out: list[Outgoing] = field(default_factory=list)
    hand_started: dict[str, Any] | None = None
    """The record of a hand dealt in this step (without actions)."""
    actions: list[dict[str, Any]] = field(default_factory=list)
    """Accepted actions, in their record form, of the hand current when the step began."""
    hand_finished: tuple[dict[str, Any], list[LedgerLine]] | None = None
    table_changed: bool = False
    """The table's own settings or seats changed (else only its timer may have)."""
    told: tuple[tuple[str, ...], float] | None = None
    """People told privately of the table opened in this step (/notify), and when: noted
    with the step, so a step that fails leaves nobody marked as told without a message."""
    settlement: Outgoing | None = None
    """The post that ends the hand (one of ``out``): what was achieved in it joins it as a
    line once the hand is stored (`bot.community.record_book`), rather than coming as a post of its
    own."""

    hint_asked: HintAsked | None = None
    """A hint asked in this step, to be thought out once the table's lock is let go
    (`bot.hosting.hinting`)."""
    rated_seats: tuple[RatedSeat, ...] | None = None
    """Who sat where when the hand finished in this step ended, at a rated table: rated
    with the hand, in its transaction (`bot.table.rated_hands`)."""

    def extend(self, other: Effects) -> None:
        self.out += other.out
        self.hand_started = self.hand_started or other.hand_started
        self.actions += other.actions
        self.hand_finished = self.hand_finished or other.hand_finished
        self.table_changed = self.table_changed or other.table_changed
        self.settlement = self.settlement or other.settlement
        self.told = self.told or other.told
        self.hint_asked = self.hint_asked or other.hint_asked
        self.rated_seats = self.rated_seats or other.rated_seats
