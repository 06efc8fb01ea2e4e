"""A digest of every action the ``normal`` AI plays in fixed hands: proof that a refactoring
left the games' behaviour alone.

Run: ``python bench/action_digest.py [--hands 200]``

Each game deals hands from seeds 0..N-1 with its default preset, the ``normal`` player takes
every decision the hand waits for (二七王's bury included), and the sha256 of all actions'
record forms, in order, is printed per game. Two checkouts that print the same digests played
the same actions.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import GAME_NAMES, game_of
from engine.ai import player


def digest(game_name: str, hands: int) -> tuple[str, int]:
    """The sha256 of every action's record form, and how many actions there were."""
    game = game_of(game_name)
    rules = game.rules(game.default_preset)
    ai = player(game_name, "normal")
    sha = hashlib.sha256()
    count = 0
    for seed in range(hands):
        hand = game.deal(rules, seed=seed)
        while not hand.over:
            seat = hand.to_act
            assert seat is not None
            action = ai.decide(hand.view(seat), hand.legal_actions(seat))
            hand.apply(action)
            sha.update(json.dumps(action.to_json(), sort_keys=True).encode())
            sha.update(b"\n")
            count += 1
    return sha.hexdigest(), count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    args = parser.parse_args()
    for name in GAME_NAMES:
        sha, count = digest(name, args.hands)
        print(name, sha, f"({count} actions)")


if __name__ == "__main__":
    main()
