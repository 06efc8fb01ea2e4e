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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.repeat import report_rounds
from engine import game_of
from engine.actions import Pass, Play


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
            action = rng.choice(actions)
            while type(action) is not Play and type(action) is not Pass:
                action = rng.choice(actions)
            hand.apply(action)
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
