"""The fixed ratings of the AI levels (each game's
`bot.community.player_records.RecordReader.ai_ratings`), measured: AI players of every level play
whole hands against each other and OpenSkill rates the levels.

Run: ``python bench/ai_ratings.py [--game situan|erqiwang] [--deals 300] [--levels
easy,normal,hard] [--hard-playouts 8] [--seed 0]``

Each deal seats a level drawn at random (seeded) at every seat and plays the hand out under
the game's default preset. Each level is one rating, starting at the model's own (25, 25/3);
after each rated hand (the game's `bot.community.player_records.RecordReader.rated_results`) the
library rates the four seats, and a level takes the sum of the μ changes of its seats in the hand
and the smallest σ (one level at two seats of a hand learns from both). The last line is JSON: per
level μ, σ, the display value and how many seats it played.

``hard`` searches ``--hard-playouts`` sampled deals per decision whatever the time
(deterministic, and fast enough for a few hundred deals on a small machine): it is the
level the bot plays, on a smaller search budget, so its figure is a lower bound.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.community.skill_ratings import Rating, display, rate
from bot.games import RECORD_READERS
from engine import game_of
from engine.ai import player


def seated(game: str, level: str, seed: int, playouts: int) -> Any:
    if level == "hard":
        return player(game, level, seed, budget=1e9, playouts=playouts, clock=lambda: 0.0)
    return player(game, level, seed)


def measure(game: str, deals: int, levels: list[str], playouts: int, seed: int) -> dict[str, Any]:
    draw = random.Random(seed)
    rules = game_of(game).rules()
    ratings = {level: Rating() for level in levels}
    seats_played = dict.fromkeys(levels, 0)
    rated_hands = 0
    for deal in range(deals):
        at = [draw.choice(levels) for _ in range(4)]
        players = [seated(game, level, deal * 4 + s, playouts) for s, level in enumerate(at)]
        hand = game_of(game).deal(rules, seed=seed * 1_000_003 + deal)
        while not hand.over:
            s = hand.to_act
            hand.apply(players[s].decide(hand.view(s), hand.legal_actions(s)))
        results = RECORD_READERS[game].rated_results(hand.result.to_json())
        if results is None:
            continue
        rated_hands += 1
        before = [ratings[level] for level in at]
        after = rate(results, before)
        moved: dict[str, float] = dict.fromkeys(set(at), 0.0)
        sigma: dict[str, float] = {}
        for s, level in enumerate(at):
            moved[level] += after[s].mu - before[s].mu
            sigma[level] = min(sigma.get(level, after[s].sigma), after[s].sigma)
            seats_played[level] += 1
        for level in moved:
            ratings[level] = Rating(ratings[level].mu + moved[level], sigma[level])
    return {
        "game": game,
        "deals": deals,
        "rated_hands": rated_hands,
        "hard_playouts": playouts,
        "levels": {
            level: {"mu": round(r.mu, 3), "sigma": round(r.sigma, 3), "display": display(r),
                    "seats": seats_played[level]}
            for level, r in ratings.items()
        },
    }  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", default="situan", choices=("situan", "erqiwang"))
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--levels", default="easy,normal,hard")
    parser.add_argument("--hard-playouts", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    found = measure(args.game, args.deals, args.levels.split(","), args.hard_playouts, args.seed)
    found["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(found, ensure_ascii=False))


if __name__ == "__main__":
    main()
