"""二七王 card order once trump is named: following-suit, level and sort key of every card.

Trumps (主) are the jokers, every 7, every 2 and the trump suit. Each following-suit has its own
ladder of *positions*, consecutive so that a tractor is pairs at positions p, p+1, …:

- trump with suit T: T3 … TA (0–10, no 7 or 2), 副2 (11), 正2 (12), 副7 (13), 正7 (14),
  LJ (15), BJ (16);
- no trump (全常主): 2 (0), 7 (1), LJ (2), BJ (3);
- a side suit: 3 … A without 7 and 2 (0–10), so 6 and 8 are neighbours.

All 副7 share one position, as do all 副2 (and with no trump all 7s, all 2s).
"""

from __future__ import annotations

from engine.cards import ALL_CARDS, Card

TRUMP = "T"
"""The following-suit of every trump."""
SIDE_RANKS = ("3", "4", "5", "6", "8", "9", "10", "J", "Q", "K", "A")
SUIT_ORDER = {"D": 0, "C": 1, "H": 2, "S": 3, "": 0}
"""Tie-break between suits for the smallest play: ♦ < ♣ < ♥ < ♠."""
TRUMP_CHOICES = ("S", "H", "C", "D", None)


class TrumpOrder:
    """The order of every card for one trump choice (a suit letter, or None for 全常主).

    ``suit[c]`` is the following-suit (``"T"`` or a suit letter), ``position[c]`` the level
    within it, ``key[c]`` a global sort key: side cards below trumps, then by level, then suit.
    """

    __slots__ = ("held_key", "key", "position", "shape_key", "suit", "trump")

    def __init__(self, trump: str | None) -> None:
        self.trump = trump
        self.suit: dict[Card, str] = {}
        self.position: dict[Card, int] = {}
        self.key: dict[Card, tuple[int, int, int]] = {}
        for c in ALL_CARDS:
            follow, position = self._place(c)
            self.suit[c] = follow
            self.position[c] = position
            self.key[c] = (1 if follow == TRUMP else 0, position, SUIT_ORDER[c.suit])
        held_rank = {TRUMP: 5, "S": 4, "H": 3, "C": 2, "D": 1}
        self.held_key: dict[Card, tuple[int, tuple[int, int, int]]] = {
            c: (held_rank[self.suit[c]], self.key[c]) for c in self.key
        }
        """Sorts a hand the way players hold it (see `sorted_cards`)."""
        self.shape_key: dict[Card, tuple[int, tuple[int, int, int]]] = {
            c: (self.position[c], self.key[c]) for c in self.key
        }
        """Orders a play's singles, highest first (`shapes.shape_of`): by level, then by ``key``."""

    def _place(self, c: Card) -> tuple[str, int]:
        trump = self.trump
        if trump is None:
            fixed = {"2": 0, "7": 1, "LJ": 2, "BJ": 3}
            if c.rank in fixed:
                return TRUMP, fixed[c.rank]
            return c.suit, SIDE_RANKS.index(c.rank)
        if c.rank == "BJ":
            return TRUMP, 16
        if c.rank == "LJ":
            return TRUMP, 15
        if c.rank == "7":
            return TRUMP, 14 if c.suit == trump else 13
        if c.rank == "2":
            return TRUMP, 12 if c.suit == trump else 11
        if c.suit == trump:
            return TRUMP, SIDE_RANKS.index(c.rank)
        return c.suit, SIDE_RANKS.index(c.rank)

    def is_trump(self, c: Card) -> bool:
        return self.suit[c] == TRUMP

    def sorted_cards(self, cards: list[Card] | tuple[Card, ...]) -> list[Card]:
        """High to low, the way players hold them: trumps first, then each side suit."""
        return sorted(cards, key=self.held_key.__getitem__, reverse=True)


ORDERS: dict[str | None, TrumpOrder] = {t: TrumpOrder(t) for t in TRUMP_CHOICES}
"""One prebuilt order per trump choice."""

BIDDING_ORDER = TrumpOrder(None)
"""Before trump is named only the permanent trumps are known (for sorting a hand)."""
