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
    for i, bound, bits in _swaps(len(deck)):
        j = getrandbits(bits)
        while j >= bound:
            j = getrandbits(bits)
        deck[i], deck[j] = deck[j], deck[i]


_SWAPS: dict[int, tuple[tuple[int, int, int], ...]] = {}


def _swaps(size: int) -> tuple[tuple[int, int, int], ...]:
    """Each swap's position, the bound of its draw and the bits drawn for it, made once per
    deck size: a deal costs a third less without working them out at each of its swaps."""
    swaps = _SWAPS.get(size)
    if swaps is None:
        swaps = _SWAPS[size] = tuple(
            (i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1)
        )
    return swaps
