"""四团 AI strength: the AI team against the 托管 policy over seeded hands.

Run: ``python bench/situan_ai_strength.py [--hands 2000] [--preset nanchang]``

The AI team sits at seats 0 and 2 in even hands and at 1 and 3 in odd ones; the other team
plays the 托管 rule (pass whenever allowed, lead the lowest single). Prints the AI team's win
rate over decided hands (carried-over hands have no winner), how hands ended, and the AI's
decision time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.ai.situan import SituanAI
from engine.situan import Action, Rules, SituanHand
from engine.situan.outcome import team_of

TEAM_NAMES = "AB"


def play_hand(rules: Rules, seed: int, ai_team: int, ai: SituanAI, timings: list[float]) -> dict:
    hand = SituanHand.from_seed(rules, seed)
    while not hand.over:
        seat = hand.show_by if hand.phase == "show_pick" else hand.turn
        if team_of(seat) == ai_team:
            started = time.perf_counter()
            action = ai.decide(hand.view(seat))
            timings.append(time.perf_counter() - started)
        else:
            action = Action(seat, "timeout")
        hand.apply(action)
    assert hand.result is not None
    return hand.result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--preset", default="nanchang")
    args = parser.parse_args()
    rules = Rules.from_preset(args.preset)
    ai = SituanAI()
    timings: list[float] = []
    wins = decided = 0
    endings: Counter[str] = Counter()
    started = time.perf_counter()
    for seed in range(args.hands):
        ai_team = seed % 2
        result = play_hand(rules, seed, ai_team, ai, timings)
        endings[result["ended_by"]] += 1
        if result["winner"] is not None:
            decided += 1
            wins += result["winner"] == TEAM_NAMES[ai_team]
    elapsed = time.perf_counter() - started
    print(f"hands: {args.hands} (preset {args.preset}), decided: {decided}")
    print(f"AI team win rate over decided hands: {wins / decided:.1%} ({wins}/{decided})")
    print("ended by: " + ", ".join(f"{k} {v}" for k, v in sorted(endings.items())))
    ms = sorted(t * 1000 for t in timings)
    print(
        f"AI decision time: median {statistics.median(ms):.3f} ms, "
        f"p99 {ms[int(len(ms) * 0.99)]:.3f} ms, max {ms[-1]:.3f} ms over {len(ms)} decisions"
    )
    print(f"wall time: {elapsed:.1f} s")


if __name__ == "__main__":
    main()
