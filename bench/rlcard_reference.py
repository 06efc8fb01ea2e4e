"""The reference the speed targets are stated against: RLCard's bare game engines.

Run: ``pip install -e '.[reference]' && python bench/rlcard_reference.py``

Random legal self-play through RLCard's ``DoudizhuGame`` and ``BridgeGame`` classes directly
(no environment wrapper, no state encoding): each decision asks the game for its legal
actions and steps one of them at random. This host's speed drifts by up to 2× between runs,
so run it next to ``situan_selfplay.py`` and ``erqiwang_selfplay.py`` and compare the ratios.
"""

from __future__ import annotations

import random
import time

import numpy as np
from rlcard.games.bridge.game import BridgeGame
from rlcard.games.doudizhu.game import DoudizhuGame


def doudizhu_legal(game: DoudizhuGame) -> list[str]:
    return list(game.state["actions"])


def bridge_legal(game: BridgeGame) -> list[object]:
    return list(game.judger.get_legal_actions())


def run(make, legal, hands: int, seed: int = 0) -> tuple[int, float]:
    rng = np.random.RandomState(seed)
    pick = random.Random(seed)
    decisions = 0
    started = time.perf_counter()
    for _ in range(hands):
        game = make()
        game.np_random = rng
        game.init_game()
        while not game.is_over():
            game.step(pick.choice(legal(game)))
            decisions += 1
    return decisions, time.perf_counter() - started


def main() -> None:
    for name, make, legal in (
        ("doudizhu", DoudizhuGame, doudizhu_legal),
        ("bridge", BridgeGame, bridge_legal),
    ):
        run(make, legal, 10)  # warm-up
        rates = []
        for _ in range(3):
            decisions, seconds = run(make, legal, 300)
            rates.append(decisions / seconds)
        shown = ", ".join(f"{r:,.0f}" for r in rates)
        print(f"RLCard {name}: best {max(rates):,.0f} decisions/s (rounds: {shown})")


if __name__ == "__main__":
    main()
