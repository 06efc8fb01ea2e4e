"""A candidate that plainly cannot replace the ``normal`` choice stops being played out, and
its samples go to those still in the running (`Search.culling`)."""

import random
from collections import Counter

from engine.actions import Action, Pass
from engine.ai.search_decision import CULL_AFTER, Search
from engine.ai.situan.search import SituanSearchAI
from tests.ai.helpers import FakeClock

NORMAL, WORSE, ALSO_WORSE, SAME, BETTER = Pass(0), Pass(1), Pass(2), Pass(3), Pass(4)


def counted(played: Counter[Action], better_every: int = 2):
    """Playouts counted per candidate: ``NORMAL`` loses every ``better_every``-th sampled deal
    and wins the others; ``WORSE`` and ``ALSO_WORSE`` always lose, ``SAME`` does what
    ``NORMAL`` does and ``BETTER`` always wins."""
    deals = [0]

    def playout(rng: random.Random, action: Action) -> float:
        played[action] += 1
        if action == NORMAL:
            deals[0] += 1
        lost = deals[0] % better_every == 0
        if action == BETTER:
            return 1.0
        if action in (WORSE, ALSO_WORSE):
            return -1.0
        return -1.0 if lost else 1.0

    return playout


def search(culling: bool, budget: float = 1e9, playouts: int = 64, step: float = 0.0) -> Search:
    class Culling(Search):
        pass

    Culling.culling = culling
    return Culling(seed=1, budget=budget, playouts=playouts, clock=FakeClock(step))


def test_hopeless_candidates_stop_being_played_out():
    played: Counter[Action] = Counter()
    hard = search(culling=True)
    candidates = [NORMAL, WORSE, SAME, BETTER]
    chosen = hard._choose(candidates, NORMAL, random.Random(3), counted(played))
    assert chosen == BETTER
    assert played[NORMAL] == played[BETTER] == played[SAME] == 64
    assert played[WORSE] == CULL_AFTER  # dropped at the first check


def test_a_run_of_equal_results_does_not_drop_a_candidate():
    """``SAME`` gains exactly 0 on every deal: no spread at all, yet a few equal results do
    not show that a candidate can never turn a hand (a gain is mostly 0, now and then ±2)."""
    played: Counter[Action] = Counter()
    hard = search(culling=True, playouts=40)
    hard._choose([NORMAL, SAME], NORMAL, random.Random(3), counted(played))
    assert played[SAME] == played[NORMAL] == 40


def test_without_culling_every_candidate_meets_every_sampled_deal():
    played: Counter[Action] = Counter()
    hard = search(culling=False)
    candidates = [NORMAL, WORSE, SAME, BETTER]
    chosen = hard._choose(candidates, NORMAL, random.Random(3), counted(played))
    assert chosen == BETTER
    assert set(played.values()) == {64}


def test_with_every_other_candidate_dropped_the_search_ends_early_on_the_normal_choice():
    played: Counter[Action] = Counter()
    hard = search(culling=True)
    chosen = hard._choose([NORMAL, WORSE, ALSO_WORSE], NORMAL, random.Random(3), counted(played))
    assert chosen == NORMAL
    assert hard.samples == CULL_AFTER
    assert sum(played.values()) == 3 * CULL_AFTER


def test_the_time_saved_on_dropped_candidates_buys_more_samples_for_the_others():
    """The same time budget (the clock moves at each reading, one per playout) gives the
    contenders more deals."""
    samples = {}
    for culling in (False, True):
        hard = search(culling, budget=4.0, playouts=10_000, step=0.01)
        candidates = [NORMAL, WORSE, ALSO_WORSE, BETTER]
        hard._choose(candidates, NORMAL, random.Random(3), counted(Counter()))
        samples[culling] = hard.samples
    assert samples[True] > 1.5 * samples[False]


def test_the_hard_situan_player_culls():
    assert SituanSearchAI.culling
