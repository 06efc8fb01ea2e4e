import random

import pytest

from engine.shuffle import shuffle_deck


@pytest.mark.parametrize("size", [0, 1, 2, 3, 54, 108, 160])
def test_the_deal_shuffle_is_the_stdlib_shuffle_and_draws_the_same_bits(size):
    # The deals of every stored seed depend on this: same order, and the generator left in
    # the same state (四团 draws its flip position after the shuffle).
    for seed in [*range(50), "table:7:3"]:
        ours, theirs = list(range(size)), list(range(size))
        mine, stdlib = random.Random(seed), random.Random(seed)
        shuffle_deck(ours, mine)
        stdlib.shuffle(theirs)
        assert ours == theirs
        assert mine.getrandbits(64) == stdlib.getrandbits(64)
