"""The 二七王 deck and deal: 2 full packs (108 cards), 25 each, 8 to the bottom; or, with
``decks: 1``, one pack (54 cards), 12 each, 6 to the bottom."""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.cards import ALL_CARDS, Card
from engine.shuffle import shuffle_deck

HAND_SIZE = 25
"""Two decks (the default); `hand_size` gives it for either deck."""
BOTTOM_SIZE = 8
"""Two decks (the default); `bottom_size` gives it for either deck."""


def bottom_size(decks: int = 2) -> int:
    return 8 if decks == 2 else 6


def hand_size(decks: int = 2) -> int:
    return (len(ALL_CARDS) * decks - bottom_size(decks)) // 4


def erqiwang_deck(decks: int = 2) -> list[Card]:
    return list(ALL_CARDS) * decks


@dataclass(frozen=True)
class Deal:
    hands: tuple[tuple[Card, ...], ...]
    bottom: tuple[Card, ...]


def deal_from_seed(seed: int | str, decks: int = 2) -> Deal:
    """Shuffle with ``random.Random(seed)`` (`shuffle_deck`); deal one card at a time from
    seat 0."""
    deck = erqiwang_deck(decks)
    shuffle_deck(deck, random.Random(seed))
    dealt = hand_size(decks) * 4
    return Deal(tuple(tuple(deck[s:dealt:4]) for s in range(4)), tuple(deck[dealt:]))
