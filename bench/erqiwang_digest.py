"""A digest of what the 二七王 engine lists, says and shows in random play under six rule sets:
proof that a change to its kept listings left every observable answer alone.

Run: ``python bench/erqiwang_digest.py [--hands 60]``

`bench/action_digest.py` follows the ``normal`` AI through one preset; this one draws each
action at random among everything listed (the natural throws and the actions aside included),
under the options whose listings differ most: the classic and online presets, one deck,
proportional scoring, ``failed_throw = smallest`` (the throws judged by what the leader can
see) and ``throw = trump_when_others_void``. Into one sha256 go, at every step, the whole
listing, the events the action brings about, one seat's view (one step in ten), and each
hand's result. Two checkouts that print the same digest answered every question alike.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.actions import Action, Bury
from engine.erqiwang import ErqiwangHand, Rules
from engine.erqiwang.order import TrumpOrder
from engine.erqiwang.views import ErqiwangView

RULE_SETS: list[tuple[str, dict[str, Any]]] = [
    ("classic", {}),
    ("classic", {"failed_throw": "smallest"}),
    ("classic", {"throw": "trump_when_others_void", "failed_throw": "smallest"}),
    ("online", {}),
    ("one_deck", {"failed_throw": "smallest"}),
    ("proportional", {}),
]


def view_text(view: ErqiwangView) -> str:
    """A view's every field (its card order by the trump it stands for)."""
    fields = []
    for name in type(view).__slots__:
        value = getattr(view, name, None)
        fields.append((name, value.trump if isinstance(value, TrumpOrder) else value))
    return repr(fields)


def digest(hands: int) -> tuple[str, int]:
    """The sha256 of every listing, event, sampled view and result, and the actions taken."""
    sha = hashlib.sha256()
    actions = 0
    for preset, options in RULE_SETS:
        rules = Rules.from_preset(preset, **options)
        for seed in range(hands):
            hand = ErqiwangHand.from_seed(rules, seed, first=seed % 4)
            rng = random.Random(seed)
            while not hand.over:
                seat = hand.to_act
                assert seat is not None
                action: Action
                if hand.phase == "bury":
                    action = Bury(seat, tuple(rng.sample(hand.hands[seat], hand.bottom_size)))
                else:
                    listed = list(hand.legal_actions(seat))
                    sha.update(repr(listed).encode())
                    action = listed[rng.randrange(len(listed))]
                sha.update(repr(hand.apply(action)).encode())
                actions += 1
                if rng.random() < 0.1:
                    sha.update(view_text(hand.view(rng.randrange(4))).encode())
            sha.update(repr(hand.result).encode())
    return sha.hexdigest(), actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=60, help="hands per rule set")
    args = parser.parse_args()
    sha, actions = digest(args.hands)
    print(f"erqiwang {sha} ({actions} actions, {len(RULE_SETS)} rule sets)")


if __name__ == "__main__":
    main()
