"""Buttons for a seat's private hand message, described neutrally.

Cards are chosen into a *selection* kept by the table (`Selection`), one press at a time —
each game's front says how (四团 by rank, then how many of it; 二七王 card by card). ``/go``
acts on the selection. Every adapter turns these buttons into its own widgets and every
press back into the same text command, so buttons and typed commands meet in one place.

Buttons carry a stamp (`Stamp`): the table, the hand and, for buttons that act on the game's
turn, the turn they belong to. A press whose stamp is not current is refused without effect.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.i18n import N_, t
from bot.views.outgoing import Button
from engine.actions import Action, Auto

ROW = 6
"""Buttons per row: Telegram shows up to 8, Discord 5 (its adapter re-flows rows)."""
STAMP_DIGITS = 12
"""A stamp's numbers are short: anything longer was not written by this bot."""


def match_tag(match: str) -> str:
    """A short name for the match ``match`` (its id: the start time) in button stamps: its
    microseconds' last five base-36 digits."""
    number, digits = int(float(match) * 1_000_000), ""
    for _ in range(5):
        number, digit = divmod(number, 36)
        digits += "0123456789abcdefghijklmnopqrstuvwxyz"[digit]
    return digits


@dataclass(frozen=True)
class Stamp:
    """What a button belongs to: ``table`` (this match), ``hand``, and ``turn`` (or None for
    buttons that stay valid through the whole hand: picking cards, 托管, 冲关, 亮牌)."""

    table: str
    hand: int
    turn: int | None = None

    def text(self) -> str:
        return f"{self.table}.{self.hand}" + ("" if self.turn is None else f".{self.turn}")

    @staticmethod
    def read(text: str) -> Stamp | None:
        parts = text.split(".")
        if len(parts) not in (2, 3) or not parts[0]:
            return None
        numbers = parts[1:]
        if not all(p.isascii() and p.isdigit() and len(p) <= STAMP_DIGITS for p in numbers):
            return None
        return Stamp(parts[0], int(parts[1]), int(parts[2]) if len(parts) == 3 else None)


@dataclass
class Selection:
    """A seat's chosen cards, not yet played: counts by token (a rank in 四团, a card in
    二七王), and the 四团 rank whose count is being chosen."""

    counts: Counter[str] = field(default_factory=Counter)
    open_rank: str | None = None

    def tokens(self) -> tuple[str, ...]:
        return tuple(token for token, n in self.counts.items() for _ in range(n))

    def size(self) -> int:
        return sum(self.counts.values())


def rows(buttons: list[Button]) -> list[tuple[Button, ...]]:
    return [tuple(buttons[i : i + ROW]) for i in range(0, len(buttons), ROW)]


def auto_toggle(lang: str, legal: Sequence[Action], stamp: Stamp) -> tuple[Button, ...]:
    """The 托管 button: on, or off for a seat that is on 托管 (the engine lists the one that
    changes something)."""
    for action in legal:
        if isinstance(action, Auto):
            label = t(lang, N_("托管 on")) if action.on else t(lang, N_("托管 off"))
            return (Button(label, "/auto on" if action.on else "/auto off", stamp.text()),)
    return ()
