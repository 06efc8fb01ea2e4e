"""What every test shares."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.table import ai_turns
from tests.hard_players import SEARCH


@pytest.fixture(autouse=True, scope="session")
def hard_seats_search_fixed_playouts() -> Iterator[None]:
    """The bot's ``hard`` AI seats search a fixed number of playouts (`tests.hard_players`),
    not for their time budget: their choices, and the games a test plays, do not depend on
    the machine's speed."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ai_turns, "HARD_SEARCH", SEARCH)
        yield
