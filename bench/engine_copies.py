"""Copies of an engine hand play as the hand (issue 53's audit, widened): 24 seeded hands of
every preset, and at every decision the hand's ``copy.copy``, ``copy.deepcopy`` and ``pickle``
round trip list the seat to act's actions as the hand does and check each of them alike.

Run: ``python bench/engine_copies.py [--hands 24]``; prints the decisions and listed actions
checked and how many differed (the audit found 106 of 437 refused by a copy, before ``fork``
carried copies and pickles).
"""

from __future__ import annotations

import argparse
import copy
import pickle
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import game_of
from tests.test_engine_copy import PRESETS, choose, refusal


def differences(hands: int) -> tuple[int, int, int]:
    """(decisions, listed actions checked, differences) over ``hands`` hands a preset."""
    decisions = checked = differ = 0
    for name, preset in PRESETS:
        game = game_of(name)
        rules = game.rules(preset)
        for seed in range(hands):
            hand = game.deal(rules, seed)
            rng = random.Random(seed)
            while not hand.over:
                seat = hand.to_act
                assert seat is not None
                listed = list(hand.legal_actions(seat))
                copies = (copy.copy(hand), copy.deepcopy(hand), pickle.loads(pickle.dumps(hand)))
                for copied in copies:
                    differ += list(copied.legal_actions(seat)) != listed
                    for action in listed:
                        checked += 1
                        differ += refusal(copied, action) != refusal(hand, action)
                decisions += 1
                hand.apply(choose(hand, rng))
    return decisions, checked, differ


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=24)
    args = parser.parse_args()
    decisions, checked, differ = differences(args.hands)
    print(
        f"{len(PRESETS)} presets × {args.hands} hands: {decisions} decisions, {checked} listed "
        f"actions checked on copy, deepcopy and pickle, {differ} differences"
    )


if __name__ == "__main__":
    main()
