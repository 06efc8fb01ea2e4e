"""四团 playouts for the ``hard`` player: the rank-count playout against the engine hand, in the
same run, on the same sampled deals.

Run: ``python bench/situan_playout.py [--views 100] [--draws 10]``

For each of ``--views`` positions (the seat to move after 0–90 turns of ``normal`` play, seeds
0…), ``--draws`` sampled deals of the hidden cards are played to the end by the ``normal``
player in every seat, once on an engine `SituanHand` (cards, checks, events, a view per step)
and once on a `SituanPlayout` (rank counts, the state is the view). Both must end alike: the
benchmark stops with an error if one result differs. Prints the playouts/s of each and the
ratio, which is how many more sampled deals the search gets in the same budget.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import game_of
from engine.ai.situan.normal import SituanAI
from engine.ai.situan.playout import SituanPlayout
from engine.ai.situan.sampling import _situan_hand, sampled_deal
from engine.situan.views import SituanView


def positions(count: int) -> list[SituanView]:
    game = game_of("situan")
    rules = game.rules()
    normal = SituanAI()
    views: list[SituanView] = []
    seed = 0
    while len(views) < count:
        hand = game.deal(rules, seed=seed)
        for _ in range(seed * 7 % 91):  # 0–90 turns in: early, middle and late positions
            if hand.over:
                break
            seat = hand.to_act
            assert seat is not None
            hand.apply(normal.decide(hand.view(seat), hand.legal_actions(seat)))
        if not hand.over:
            seat = hand.to_act
            assert seat is not None
            views.append(hand.view(seat))
        seed += 1
    return views


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--views", type=int, default=100)
    parser.add_argument("--draws", type=int, default=10)
    args = parser.parse_args()
    normal = SituanAI()
    deals = []
    for view in positions(args.views):
        rng = random.Random(0)
        for _ in range(args.draws):
            deal = sampled_deal(view, rng)
            if deal is not None:
                deals.append((view, deal))
    engine_time = playout_time = 0.0
    for view, (hands, bottom) in deals:
        started = time.perf_counter()
        hand = _situan_hand(view, [list(h) for h in hands], bottom)
        while not hand.over:
            seat = hand.to_act
            assert seat is not None
            hand.apply(normal.wanted_for(hand.view(seat)))
        middle = time.perf_counter()
        playout = SituanPlayout(view, [list(h) for h in hands], bottom).play_out(normal)
        playout_time += time.perf_counter() - middle
        engine_time += middle - started
        result = hand.result
        assert result is not None
        winner = None if result.winner is None else "AB".index(result.winner)
        if (winner, result.team_points) != (playout.winner, playout.team_points):
            raise SystemExit(f"the playout ended otherwise than the engine: {view.turn}")
    n = len(deals)
    print(f"四团 playouts, {n} sampled deals from {args.views} positions, all ended alike:")
    print(f"  engine hand      {n / engine_time:8.0f} playouts/s")
    print(f"  rank-count       {n / playout_time:8.0f} playouts/s")
    print(f"  ratio            {engine_time / playout_time:8.2f}x")


if __name__ == "__main__":
    main()
