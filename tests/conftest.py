"""What every test shares."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.ops.cores import usable_cores
from bot.table import ai_turns
from tests.hard_players import SEARCH

WORKERS_PER_CORE = 2
"""``-n auto`` (pyproject's addopts) starts this many xdist workers a usable core. Most tests
spend most of their time waiting — on bot processes, fake servers, the browser, paced calls —
not computing: tests/telegram took 153 s on 2 workers and 109 s on 4 (same CPU time, 73 s,
2 loaded cores; 6 workers did no better)."""


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    return WORKERS_PER_CORE * usable_cores()


@pytest.fixture(autouse=True, scope="session")
def hard_seats_search_fixed_playouts() -> Iterator[None]:
    """The bot's ``hard`` AI seats search a fixed number of playouts (`tests.hard_players`),
    not for their time budget: their choices, and the games a test plays, do not depend on
    the machine's speed."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ai_turns, "HARD_SEARCH", SEARCH)
        yield
