"""二七王 random legal self-play: hands/s and decisions/s on one core.

Run: ``python bench/erqiwang_selfplay.py [--hands 1500] [--preset classic]``

Every decision is taken uniformly at random among what the engine allows: a bid among
`allowed_bids` or a pass, a trump among the allowed suits, any 8 cards to bury, and a play among
`legal_plays()` (leads: singles, pairs, tractors and the natural throws; follows: every legal
follow). Each goes through the public `apply`, with its full checks and events. Bids, trump,
bury and plays all count as decisions. A hand where everyone passes is dealt again and counts.
Target (issue 3): ≥ 50,000 decisions/s.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.repeat import report_rounds
from engine.erqiwang import Action, ErqiwangHand, Rules

SUITS = ("S", "H", "C", "D")


def random_action(hand: ErqiwangHand, rng: random.Random) -> Action:
    phase = hand.phase
    seat = hand.to_act
    if phase == "play":
        return Action(seat, "play", cards=rng.choice(hand.legal_plays()))
    if phase == "bidding":
        bids = hand.allowed_bids()
        pick = rng.randrange(len(bids) + hand.may_pass_bidding())
        return Action(seat, "bid", points=bids[pick]) if pick < len(bids) else Action(seat, "pass")
    if phase == "trump":
        choices = (*SUITS, "none") if hand.rules.allow_no_trump else SUITS
        return Action(seat, "trump", suit=rng.choice(choices))
    return Action(seat, "bury", cards=tuple(rng.sample(hand.hands[seat], 8)))


def run(hands: int, preset: str, seed: int = 0) -> tuple[int, float]:
    rules = Rules.from_preset(preset)
    rng = random.Random(seed)
    decisions = 0
    started = time.perf_counter()
    for hand_seed in range(hands):
        hand = ErqiwangHand.from_seed(rules, hand_seed, first=hand_seed % 4)
        while not hand.over:
            hand.apply(random_action(hand, rng))
            decisions += 1
    return decisions, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=800)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    run(30, args.preset)  # warm-up
    decisions, elapsed = run(args.hands, args.preset)
    per_hand = decisions / args.hands
    print(f"preset {args.preset}: {args.hands} hands per round, {per_hand:.0f} decisions per hand")
    print(f"hands/s: {args.hands / elapsed:,.0f} (first round, bids, trump and bury included)")
    report_rounds(args.rounds, lambda: run(args.hands, args.preset), "decisions")


if __name__ == "__main__":
    main()
