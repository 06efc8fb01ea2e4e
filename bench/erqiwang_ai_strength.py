"""二七王 AI strength: an AI declarer against 托管 defenders, AI defenders against a 托管
declarer, over seeded hands.

Run: ``python bench/erqiwang_ai_strength.py [--hands 2000] [--preset classic]``

- AI declarer: seat 0 is the AI and bids first with ``first_must_bid`` on, so it declares in
  every hand, whatever its cards (mostly at the top bid, as the 托管 seats pass); it wins
  when the defenders stay below its bid.
- AI defenders: seat 0 plays 托管 and is the first bidder with ``first_must_bid`` on, so it
  makes its rule's bid (the highest allowed); the three AI seats pass in the bidding and
  then defend. The AI side wins when the defenders reach the bid.
The same settings are also played against random legal opponents, and four AI players bid
freely against each other as a sanity check (declarer win rate, share of hands redealt).
Prints win rates, mean declarer settlement and the AI's decision time.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.repeat import report_decision_times
from engine.ai.erqiwang import ErqiwangAI
from engine.erqiwang import Action, ErqiwangHand, Rules

SUITS = ("S", "H", "C", "D")


def random_action(hand: ErqiwangHand, rng: random.Random) -> Action:
    seat = hand.to_act
    if hand.phase == "play":
        return Action(seat, "play", cards=rng.choice(hand.legal_plays()))
    if hand.phase == "bidding":
        return Action(seat, "pass") if hand.may_pass_bidding() else Action(seat, "timeout")
    if hand.phase == "trump":
        return Action(seat, "trump", suit=rng.choice(SUITS))
    return Action(seat, "bury", cards=tuple(rng.sample(hand.hands[seat], 8)))


def play(
    rules: Rules, seed: int, ai_seats: set[int], others: str, ai: ErqiwangAI,
    timings: list[float], ai_may_bid: bool,
) -> dict:  # fmt: skip
    hand = ErqiwangHand.from_seed(rules, seed, first=0)
    rng = random.Random(seed)
    while not hand.over:
        seat = hand.to_act
        if seat in ai_seats or others == "ai":
            if hand.phase == "bidding" and not ai_may_bid and seat in ai_seats:
                action = Action(seat, "pass")
            else:
                started = time.perf_counter()
                action = ai.decide(hand.view(seat))
                timings.append(time.perf_counter() - started)
        elif others == "tuoguan":
            action = Action(seat, "timeout")
        else:
            action = random_action(hand, rng)
        hand.apply(action)
    assert hand.result is not None
    return hand.result


def setting(name: str, rules: Rules, hands: int, ai_declares: bool, others: str,
            timings: list[float]) -> None:  # fmt: skip
    ai = ErqiwangAI()
    ai_seats = {0, 1, 2, 3} if others == "ai" else {0} if ai_declares else {1, 2, 3}
    wins = played = redeals = 0
    amounts: list[Fraction] = []
    for seed in range(hands):
        result = play(rules, seed, ai_seats, others, ai, timings, ai_may_bid=ai_declares)
        if result.get("redeal"):
            redeals += 1
            continue
        played += 1
        declarer_won = result["declarer_won"]
        wins += declarer_won if ai_declares or others == "ai" else not declarer_won
        amounts.append(Fraction(result["stakes"][result["declarer"]]))
    mean = float(sum(amounts) / len(amounts)) if amounts else 0.0
    print(f"{name:38}: AI side wins {wins / played:6.1%} of {played} hands "
          f"(declarer wins {sum(a > 0 for a in amounts) / played:5.1%}, "
          f"mean declarer settlement {mean:+.2f}, redeals {redeals})")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--preset", default="classic")
    args = parser.parse_args()
    base = Rules.from_preset(args.preset)
    forced = Rules.from_preset(args.preset, first_must_bid=True)
    timings: list[float] = []
    started = time.perf_counter()
    print(f"hands: {args.hands} per setting (preset {args.preset})")
    setting("AI declarer vs 托管 defenders", forced, args.hands, True, "tuoguan", timings)
    setting("AI defenders vs 托管 declarer", forced, args.hands, False, "tuoguan", timings)
    setting("AI declarer vs random defenders", forced, args.hands, True, "random", timings)
    setting("AI defenders vs random declarer", forced, args.hands, False, "random", timings)
    setting("AI vs AI, free bidding (declarer side)", base, args.hands, True, "ai", timings)
    report_decision_times(timings)
    print(f"wall time: {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
