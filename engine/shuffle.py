"""The deal's shuffle, owned here rather than borrowed from `random.Random.shuffle`.

It is the Fisher–Yates shuffle `random.Random.shuffle` does (CPython 3.11 and 3.12): from the
last position down, each card swaps with one drawn below it, the draw being ``getrandbits`` of
the bound's bit length, drawn again while out of range. Written out here, the draws cost no
Python call each (a deal is 108 or 160 of them, a few per cent of a random self-play hand),
and a seed keeps naming the same deal even if a later Python changes its own shuffle: Python
promises only ``random()``'s sequence, and hand records name their deals by seed. A test holds
it to the stdlib's result.
"""

from __future__ import annotations

import random
from typing import Any


def shuffle_deck(deck: list[Any], rng: random.Random) -> None:
    """Shuffle ``deck`` in place, exactly as ``rng.shuffle(deck)`` does, drawing the same bits."""
    getrandbits = rng.getrandbits
    for i in range(len(deck) - 1, 0, -1):
        bound = i + 1
        bits = bound.bit_length()
        j = getrandbits(bits)
        while j >= bound:
            j = getrandbits(bits)
        deck[i], deck[j] = deck[j], deck[i]
