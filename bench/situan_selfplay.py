"""四团 random legal self-play: hands/s and decisions/s on one core.

Run: ``python bench/situan_selfplay.py [--hands 3000]``

Each decision asks the engine for the legal plays of the seat to move, picks one of them or
the pass uniformly at random, and applies it through the public `apply` (full checks, events).
A decision is one play or pass. Target (issue 2): ≥ 65,000 decisions/s.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.repeat import report_rounds
from engine.situan import Action, Rules, SituanHand


def run(hands: int, seed: int = 0) -> tuple[int, float]:
    rules = Rules.from_preset("nanchang")
    rng = random.Random(seed)
    decisions = 0
    started = time.perf_counter()
    for hand_seed in range(hands):
        hand = SituanHand.from_seed(rules, hand_seed)
        while not hand.over:
            plays = hand.legal_plays()
            pick = rng.randrange(len(plays) + hand.can_pass)
            seat = hand.turn
            hand.apply(
                Action.play(seat, plays[pick]) if pick < len(plays) else Action(seat, "pass")
            )
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
