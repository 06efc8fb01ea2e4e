"""四团 AI strength: the AI team against the 托管 policy over seeded hands.

Run: ``python bench/situan_ai_strength.py [--hands 2000] [--preset nanchang]``

The AI team sits at seats 0 and 2 in even hands and at 1 and 3 in odd ones. The issue's
figure is against the 托管 rule (pass whenever allowed, lead the lowest single); as 托管 never
contests a round, the same hands are also played against random legal play, and AI against
AI as a sanity check (about 50% expected). Prints the AI team's win rate over decided hands
(carried-over hands have no winner), how hands ended, and the AI's decision time.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.repeat import report_decision_times
from engine.ai.situan import SituanAI
from engine.situan import Action, Rules, SituanHand
from engine.situan.outcome import team_of

TEAM_NAMES = "AB"


def opponent_action(hand: SituanHand, seat: int, opponent: str, rng: random.Random) -> Action:
    if opponent == "tuoguan":
        return Action(seat, "timeout")  # the engine plays the 托管 rule
    if opponent == "ai":
        return SituanAI().decide(hand.view(seat))
    if hand.phase == "show_pick":
        return Action(seat, "timeout")
    plays = hand.legal_plays()
    pick = rng.randrange(len(plays) + hand.can_pass)
    return Action.play(seat, plays[pick]) if pick < len(plays) else Action(seat, "pass")


def play_hand(
    rules: Rules, seed: int, ai_team: int, opponent: str, ai: SituanAI, timings: list[float]
) -> dict:
    hand = SituanHand.from_seed(rules, seed)
    rng = random.Random(seed)
    while not hand.over:
        seat = hand.show_by if hand.phase == "show_pick" else hand.turn
        assert seat is not None
        if team_of(seat) == ai_team:
            started = time.perf_counter()
            action = ai.decide(hand.view(seat))
            timings.append(time.perf_counter() - started)
        else:
            action = opponent_action(hand, seat, opponent, rng)
        hand.apply(action)
    assert hand.result is not None
    return hand.result


def match(rules: Rules, hands: int, opponent: str, timings: list[float]) -> None:
    ai = SituanAI()
    wins = decided = 0
    endings: Counter[str] = Counter()
    for seed in range(hands):
        ai_team = seed % 2
        result = play_hand(rules, seed, ai_team, opponent, ai, timings)
        endings[result["ended_by"]] += 1
        if result["winner"] is not None:
            decided += 1
            wins += result["winner"] == TEAM_NAMES[ai_team]
    ended = ", ".join(f"{k} {v}" for k, v in sorted(endings.items()))
    print(
        f"against {opponent:8}: AI team wins {wins / decided:6.1%} of decided hands "
        f"({wins}/{decided}); ended by {ended}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--preset", default="nanchang")
    args = parser.parse_args()
    rules = Rules.from_preset(args.preset)
    timings: list[float] = []
    started = time.perf_counter()
    print(f"hands: {args.hands} per opponent (preset {args.preset}), seats swapped every hand")
    for opponent in ("tuoguan", "random", "ai"):
        match(rules, args.hands, opponent, timings)
    report_decision_times(timings)
    print(f"wall time: {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
