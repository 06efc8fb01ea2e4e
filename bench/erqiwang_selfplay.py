"""二七王 random legal self-play: hands/s and decisions/s on one core.

Run: ``python bench/erqiwang_selfplay.py [--hands 1500] [--preset classic]``

Every decision is taken uniformly at random among what the engine lists (the shared protocol's
`legal_actions`; 托管, 冲关 and surrender, which a seat may take aside from its turn's choice,
are left out): a bid or a pass, a trump among the allowed suits, a play (leads: singles, pairs,
tractors and the natural throws; follows: every legal follow), and any 8 cards to bury (the one
choice the engine checks rather than lists). Each goes through the public `apply`, with its
full checks and events. Bids, trump, bury and plays all count as decisions. A hand where
everyone passes is dealt again and counts.
Target (issue 3): ≥ 50,000 decisions/s.
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
from engine.actions import Action, Auto, Bury, DeclareBonus, Surrender
from engine.erqiwang import ErqiwangHand
from engine.game import Carry

ASIDE = (Auto, DeclareBonus, Surrender)
"""What a seat may take besides its turn's choice: left out of the random choice."""


def random_action(hand: ErqiwangHand, rng: random.Random) -> Action:
    """One draw among the turn's own choices (`turn_choices`): the draw the benchmark made
    before the shared protocol (among the plays, or the bids and the pass), so it plays the
    same games and times the same work."""
    seat = hand.to_act
    assert seat is not None
    if hand.phase == "bury":
        return Bury(seat, tuple(rng.sample(hand.hands[seat], 8)))
    actions = hand.legal_actions(seat)
    # `choice` of a range draws as `randrange` does, through fewer checks of its argument.
    return actions[rng.choice(range(turn_choices(actions)))]


def turn_choices(actions: Sequence[Action]) -> int:
    """How many listed actions are the turn's own choices: the ones aside from it come last,
    托管 on or off last of all."""
    if type(actions) is not list:  # a listing made when read keeps the others apart
        others: Sequence[Action] = actions.others  # type: ignore[attr-defined]
        return len(actions) - len(others)
    count = len(actions) - 1
    while count and type(actions[count - 1]) in ASIDE:
        count -= 1
    return count


def run(hands: int, preset: str, seed: int = 0) -> tuple[int, float]:
    game = game_of("erqiwang")
    rules = game.rules(preset)
    rng = random.Random(seed)
    decisions = 0
    started = time.perf_counter()
    for hand_seed in range(hands):
        hand = game.deal(rules, seed=hand_seed, carry=Carry(hand_seed % 4))
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
