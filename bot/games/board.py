"""What the web table shows of one view (`GameFront.board`): plain values a page draws
without knowing the game, in the reader's language.

Cards are given in their canonical text (``S10``, ``LJ``; a 四团 play by its ranks, ``7``):
the page draws them. A board is made from a seat's own view (or the public one): it holds
nothing that view does not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Played:
    """One seat's play in a trick or round: its cards, or a pass; or, in an auction, its
    bid as words (``said``: ``120``, 不叫 — a pass in the auction is no 不要)."""

    seat: int
    cards: tuple[str, ...] = ()
    passed: bool = False
    said: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "cards": list(self.cards), "pass": self.passed,
                "said": self.said}  # fmt: skip


@dataclass(frozen=True)
class Shown:
    """Cards the view shows beside the hands: a 亮牌, the bottom, a 冲关's jokers."""

    label: str
    cards: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "cards": list(self.cards)}


@dataclass(frozen=True)
class Board:
    counts: tuple[str, ...]
    """Each seat's card count as the table message writes it (报牌: ``>11``; ``out``)."""
    marks: tuple[tuple[str, ...], ...]
    """Each seat's public marks (declarer, a finishing place, 冲关…)."""
    trick_title: str
    trick: tuple[Played, ...]
    """The trick or round being played."""
    last_title: str
    last: tuple[Played, ...]
    """The last trick or round closed, shown on demand, and its line (who took it)."""
    last_line: str
    lines: tuple[str, ...]
    """Public facts: points, bid, trump, declarer, the 亮墩 and the series."""
    shown: tuple[Shown, ...]
    hand: tuple[str, ...]
    """The view's own cards, sorted as the game sorts them."""
    breaks: tuple[int, ...] = ()
    """Where a new suit group begins in ``hand`` (二七王: trumps, then each suit)."""
    by_rank: bool = False
    """Cards are drawn by rank alone (四团: suits never matter)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "counts": list(self.counts),
            "marks": [list(m) for m in self.marks],
            "trick_title": self.trick_title,
            "trick": [p.to_json() for p in self.trick],
            "last_title": self.last_title,
            "last": [p.to_json() for p in self.last],
            "last_line": self.last_line,
            "lines": list(self.lines),
            "shown": [s.to_json() for s in self.shown],
            "hand": list(self.hand),
            "breaks": list(self.breaks),
            "by_rank": self.by_rank,
        }


def texts_of(cards: Sequence[Any]) -> tuple[str, ...]:
    """Cards in their canonical text."""
    return tuple(str(card) for card in cards)
