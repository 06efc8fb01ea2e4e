"""A contested decision (a candidate looks better than the ``normal`` choice, not yet surely)
runs for more budgets; a clear one does not (`Search.extension`)."""

import random

from engine.actions import Pass
from engine.ai.search_decision import Search
from tests.ai.helpers import FakeClock

NORMAL, OTHER = Pass(0), Pass(1)


def gain_in(every: int):
    """A playout where ``OTHER`` wins, on every ``every``-th sampled deal (none for 0), a
    hand the ``normal`` choice loses; both lose the rest."""
    deals = [0]

    def playout(rng: random.Random, action):
        if action == NORMAL:
            deals[0] += 1
            return -1.0
        return 1.0 if every and deals[0] % every == 0 else -1.0

    return playout


def search(extension: float, playouts: int = 8) -> Search:
    class Extending(Search):
        pass

    Extending.extension = extension
    return Extending(seed=1, budget=1e9, playouts=playouts, clock=FakeClock(0.0))


def test_a_contested_decision_takes_more_sampled_deals_and_then_decides():
    rng = random.Random(4)
    hard = search(3.0)
    chosen = hard._choose([NORMAL, OTHER], NORMAL, rng, gain_in(4))
    assert hard.samples == 32  # eight deals, not sure yet: three budgets more
    assert chosen == OTHER  # a hand won in four is now clear of the noise


def test_without_an_extension_the_same_search_stops_at_its_playouts():
    hard = search(0.0)
    hard._choose([NORMAL, OTHER], NORMAL, random.Random(4), gain_in(4))
    assert hard.samples == 8


def test_a_decision_nobody_contests_is_not_extended():
    hard = search(3.0)
    assert hard._choose([NORMAL, OTHER], NORMAL, random.Random(4), gain_in(0)) == NORMAL
    assert hard.samples == 8
    hard = search(3.0)  # and one already sure at the budget
    assert hard._choose([NORMAL, OTHER], NORMAL, random.Random(4), gain_in(1)) == OTHER
    assert hard.samples == 8


def test_an_extension_is_bounded_by_its_budgets_in_time():
    clock = FakeClock(step=0.01)
    hard = Search(seed=1, budget=0.1, playouts=10_000, clock=clock)
    hard.extension = 3.0
    hard._choose([NORMAL, OTHER], NORMAL, random.Random(4), gain_in(4))
    # extended once, to four budgets (0.4 s): the clock is read at each iteration and each
    # playout after the first, and the search stops at the first reading past them
    elapsed = clock.now - clock.step  # the first reading starts the search
    assert 0.4 <= elapsed <= 0.4 + 3 * clock.step
    assert hard.samples > 8
