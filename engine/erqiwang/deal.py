"""The 二七王 deck and deal: 2 full packs (108 cards), 25 each, 8 to the bottom."""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.cards import ALL_CARDS, Card

HAND_SIZE = 25
BOTTOM_SIZE = 8
DEALT = HAND_SIZE * 4


def erqiwang_deck() -> list[Card]:
    return list(ALL_CARDS) * 2


@dataclass(frozen=True)
class Deal:
    hands: tuple[tuple[Card, ...], ...]
    bottom: tuple[Card, ...]


def deal_from_seed(seed: int | str) -> Deal:
    """Shuffle with ``random.Random(seed)``; deal one card at a time from seat 0."""
    deck = erqiwang_deck()
    random.Random(seed).shuffle(deck)
    return Deal(tuple(tuple(deck[s:DEALT:4]) for s in range(4)), tuple(deck[DEALT:]))
