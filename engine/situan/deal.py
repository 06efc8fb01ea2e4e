"""The 四团 deck and deal: 3 packs minus the 2 big jokers, 39 cards each, 4 to the bottom."""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.cards import BJ, LJ, NATURAL_RANKS, SUITS, Card, card
from engine.shuffle import shuffle_deck

HAND_SIZE = 39
BOTTOM_SIZE = 4
DEALT = HAND_SIZE * 4


def situan_deck() -> list[Card]:
    """The 160 cards in a fixed order: 3 × (every suit × rank), 3 small jokers, 1 big joker."""
    return list(_DECK)


_NATURALS = tuple(card(suit + rank) for suit in SUITS for rank in NATURAL_RANKS)
_DECK = _NATURALS * 3 + (LJ, LJ, LJ, BJ)
"""`situan_deck`'s order, made once (a deal shuffles a copy)."""


@dataclass(frozen=True)
class Deal:
    """Four hands and the bottom. Card ``i`` of seat ``s``'s hand was dealt at position 4·i+s."""

    hands: tuple[tuple[Card, ...], ...]
    bottom: tuple[Card, ...]
    flipped_position: int | None = None
    """翻牌: the deck position turned face up before the deal (`first_leader = flip`)."""

    @property
    def flipped_card(self) -> Card | None:
        if self.flipped_position is None:
            return None
        return self.hands[self.flipped_position % 4][self.flipped_position // 4]

    def flip_leader(self) -> int | None:
        """The seat dealt the flipped card."""
        return None if self.flipped_position is None else self.flipped_position % 4

    def spade3_leader(self) -> int:
        """The first seat dealt a ♠3; if all three lie in the bottom, the first dealt any 3."""
        for wanted in ("S3", "3"):
            for position in range(DEALT):
                seat, index = position % 4, position // 4
                if index < len(self.hands[seat]) and (
                    self.hands[seat][index].text == wanted or self.hands[seat][index].rank == wanted
                ):
                    return seat
        return 0


def deal_from_seed(seed: int | str) -> Deal:
    """Shuffle with ``random.Random(seed)`` and deal one card at a time from seat 0.

    The same seed gives the same deal on every machine (Python's Mersenne Twister and our
    shuffle, `shuffle_deck`, are specified). The flip position is drawn after the shuffle,
    among dealt cards.
    """
    rng = random.Random(seed)
    deck = situan_deck()
    shuffle_deck(deck, rng)
    hands = tuple(tuple(deck[seat:DEALT:4]) for seat in range(4))
    return Deal(hands, tuple(deck[DEALT:]), rng.randrange(DEALT))
