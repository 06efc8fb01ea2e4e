"""四团 random legal self-play: hands/s and decisions/s on one core.

Run: ``python bench/situan_selfplay.py [--hands 3000]``

Each decision asks the engine for the seat's legal actions (the shared protocol's
`legal_actions`), picks one of its plays or the pass uniformly at random (the actions a seat may
take at any time, 托管 and 亮牌, are left out), and applies it through the public `apply` (full
checks, events). A decision is one play or pass. Target (issue 2): ≥ 65,000 decisions/s.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.repeat import report_rounds
from engine import game_of
from engine.actions import Action, Pass, Play


def turn_choices(actions: Sequence[Action]) -> int:
    """How many listed actions are the turn's plays and pass: what a seat may do at any time
    comes after them. One draw among those is the draw the benchmark made before the shared
    protocol (among the plays and the pass), so it plays the same games and times the same
    work."""
    count = len(actions)
    while count and type(actions[count - 1]) is not Play and type(actions[count - 1]) is not Pass:
        count -= 1
    return count


def run(hands: int, seed: int = 0) -> tuple[int, float]:
    game = game_of("situan")
    rules = game.rules("nanchang")
    rng = random.Random(seed)
    decisions = 0
    started = time.perf_counter()
    for hand_seed in range(hands):
        hand = game.deal(rules, seed=hand_seed)
        while not hand.over:
            seat = hand.to_act
            assert seat is not None
            actions = hand.legal_actions(seat)
            hand.apply(actions[rng.randrange(turn_choices(actions))])
            decisions += 1
    return decisions, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    run(50)  # warm-up
    decisions, elapsed = run(args.hands)
    print(f"{args.hands} hands per round, {decisions / args.hands:.0f} decisions per hand")
    print(f"hands/s: {args.hands / elapsed:,.0f} (first round, deal included)")
    report_rounds(args.rounds, lambda: run(args.hands), "decisions")


if __name__ == "__main__":
    main()
