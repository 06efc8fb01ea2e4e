"""``python -m bot``: until the table host exists (issue 4), plays one 4-AI 四团 hand and prints it.

Optional: ``python -m bot --seed N``.
"""

from __future__ import annotations

import argparse

from engine.ai.situan import SituanAI
from engine.situan import RANKS, Rules, SituanHand
from engine.situan.actions import HandEnded, Passed, Played, RoundWon, WentOut

PLACES = {1: "上游", 2: "2游", 3: "3游"}


def main() -> None:
    parser = argparse.ArgumentParser(description="Play one 四团 hand with four AI players")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    hand = SituanHand.from_seed(Rules.from_preset("nanchang"), args.seed)
    ai = SituanAI()
    print(f"四团 — seed {args.seed}; seat {hand.first} leads")
    for seat in range(4):
        held = " ".join(f"{RANKS[r]}×{n}" for r, n in enumerate(hand.rank_counts(seat)) if n)
        print(f"  seat {seat}: {held}")
    while not hand.over:
        seat = hand.show_by if hand.phase == "show_pick" else hand.turn
        assert seat is not None
        for event in hand.apply(ai.decide(hand.view(seat))):
            if isinstance(event, Played):
                print(
                    f"seat {event.seat}: {event.combo.name()}  ({' '.join(map(str, event.cards))})"
                )
            elif isinstance(event, Passed):
                print(f"seat {event.seat}: 不要")
            elif isinstance(event, RoundWon):
                print(f"  — seat {event.seat} wins the round (+{event.points})")
            elif isinstance(event, WentOut) and event.place in PLACES:
                print(f"  ★ seat {event.seat} is out: {PLACES[event.place]}")
            elif isinstance(event, HandEnded):
                result = event.result
                print(f"ended by {result['ended_by']}; team points {result['team_points']}")
                print(f"winner: team {result['winner']}; totals per seat: {result['total']}")


if __name__ == "__main__":
    main()
