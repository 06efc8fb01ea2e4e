"""The hint check (``python bench/ai_strength.py --hint-check --deals 200``), issue 55.

1. At random decision points of fresh deals of each game (hands played by ``normal`` players;
   ``--points`` points a deal, where the seat has a choice), the hint —
   `bot.table.hint_answers.hint_job` asked through `bot.ai_seats.worker_pool.AiWorkers.consult` on
   ``--workers`` worker processes, as the bot asks it — is compared with the ``hard`` seats' own
   decision (`bot.table.ai_turns.decide_job`) of the same view in this process: equal (one code
   path, one seed), always legal, and its time from asking to answer (median, p90, p99). A hint
   whose search the worker's deadline (`bot.ai_seats.worker_pool.HINT_DEADLINE`) cut short may
   differ: those are counted apart. 2. Strength: a ``normal`` player that follows every hint
   (`HintFollower`: the hint's move, by `hint_job`) against ``hard`` itself, on the same deals
   (``--playouts`` sampled deals a decision for both, when given): 四团 win rates of each against
   ``normal`` teams; 二七王 whole hands with each in one seat among ``normal`` players (units per
   hand)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Sequence
from typing import Any

from bot.ai_seats.worker_pool import HINT_DEADLINE, AiWorkers, Job
from bot.table import ai_turns
from bot.table.hint_answers import HINT_LEVEL, hint_job
from bot.table.hint_book import same_move
from engine import game_of
from engine.actions import Action
from engine.ai import player
from engine.errors import IllegalAction


class HintFollower:
    """A player who asks for a hint at every decision and plays it."""

    def __init__(self, game: str) -> None:
        self.game = game

    def decide(self, view: Any, legal: Sequence[Action]) -> Action:
        return hint_job(Job(self.game, HINT_LEVEL, 1.0, view, tuple(legal))).move


Point = tuple[Any, Any, tuple[Action, ...]]
"""A decision point: the hand then (a fork), the seat's view and its legal actions."""


def decision_points(game: str, seed: int, points: int) -> list[Point]:
    """``points`` decisions (where the seat has more than one choice) drawn at random from a
    hand of ``game`` dealt from ``seed`` and played by ``normal`` players."""
    engine = game_of(game)
    hand = engine.deal(engine.rules(), seed=seed)
    normal = player(game, "normal")
    seen: list[Point] = []
    while not hand.over:
        seat = hand.to_act
        legal = tuple(hand.legal_actions(seat))
        view = hand.view(seat)
        if len(legal) > 1:
            seen.append((hand.fork(), view, legal))
        hand.apply(normal.decide(view, legal))
    return random.Random(seed).sample(seen, min(points, len(seen)))


async def check(game: str, deals: range, points: int, workers: int) -> dict[str, Any]:
    """Part 1 for one game: counts and the hints' times."""
    pool = AiWorkers(ai_turns.decide_job, workers)
    await pool.warm()
    asked = equal = legal_ones = cut = 0
    times: list[float] = []
    cpu: list[float] = []
    try:
        for seed in deals:
            for then, view, legal in decision_points(game, seed, points):
                started = time.perf_counter()
                advice = await pool.consult(hint_job, game, HINT_LEVEL, view, legal)
                seconds = time.perf_counter() - started
                times.append(seconds)
                working = time.process_time()
                hard, _ = ai_turns.decide_job(Job(game, HINT_LEVEL, 1.0, view, legal))
                cpu.append(time.process_time() - working)
                asked += 1
                legal_ones += is_legal(then, advice.move)
                if same_move(advice.move, hard):
                    equal += 1
                elif workers and seconds >= HINT_DEADLINE:
                    cut += 1
    finally:
        pool.close()
    return {"asked": asked, "equal": equal, "legal": legal_ones, "cut": cut, "times": times,
            "cpu": cpu}  # fmt: skip


def is_legal(hand: Any, move: Action) -> bool:
    """The engine's own check (a bury is built, not listed among the legal actions)."""
    try:
        hand.check(move)
    except IllegalAction:
        return False
    return True


def percentile(times: list[float], q: float) -> float:
    ranked = sorted(times)
    return ranked[min(len(ranked) - 1, int(q * len(ranked)))] if ranked else float("nan")


def spread(times: list[float]) -> str:
    return ", ".join(
        f"{name} {percentile(times, q) * 1000:.0f} ms"
        for name, q in (("median", 0.5), ("p90", 0.9), ("p99", 0.99))
    )


def report_check(game: str, found: dict[str, Any], workers: int) -> None:
    shown = spread(found["times"])
    print(
        f"{game} hints: {found['asked']} decision points; equal to the hard seat's decision "
        f"{found['equal']}/{found['asked']} (cut short by the deadline and differing: "
        f"{found['cut']}); legal {found['legal']}/{found['asked']}; time on "
        f"{workers or 'no'} worker process(es), wall: {shown}; the same decision's CPU "
        f"time in this process: {spread(found['cpu'])}"
    )


def run(
    games: Sequence[str],
    deals: range,
    points: int,
    workers: int,
    playouts: int | None,
    strength: int,
) -> None:
    """Both parts, as ``--hint-check`` runs them."""
    for game in games:
        report_check(game, asyncio.run(check(game, deals, points, workers)), workers)
    if not strength:
        return
    if playouts is not None:  # the follower's hints and hard's own search alike
        ai_turns.HARD_SEARCH.update({"playouts": playouts, "clock": lambda: 0.0})
    from bench import ai_strength

    ai_strength.PLAYOUTS = playouts
    strength_deals = range(deals.start, deals.start + strength)
    if "situan" in games:
        for level in ("hinted", "hard"):
            ai_strength.situan(strength_deals, level, "normal", None)
    if "erqiwang" in games:
        gains = {
            level: ai_strength.erqiwang_whole(strength_deals, level, "normal", None, "classic")
            for level in ("hinted", "hard")
        }
        apart = [a - b for a, b in zip(gains["hinted"], gains["hard"], strict=True)]
        print(
            f"二七王: the hint follower in the seat minus hard in the seat: "
            f"{ai_strength.paired(apart, '.3f')} units per hand"
        )
