"""The ``hard`` AI players as the tests run them: a fixed number of sampled deals per decision
on a clock that never moves, so that what one chooses — and so what a test built on it goes
through — is the same on any machine under any load. (At a table they search for a time
budget instead: `engine.ai.search_decision`.) tests/conftest.py sets the bot's seats to it."""

from __future__ import annotations

from typing import Any

from engine.ai import player

PLAYOUTS = 4
"""Sampled deals per decision (a contested one, or a 二七王 declaration, takes its multiple):
enough for the search to overrule the ``normal`` choice now and then (about one decision in
ten), few enough to keep a decision at a few milliseconds."""


def still() -> float:
    """A clock that never moves: no budget runs out, the playouts end every search."""
    return 0.0


SEARCH: dict[str, Any] = {"playouts": PLAYOUTS, "clock": still}
"""The search options of `engine.ai.player` for a ``hard`` player in the tests."""


def fixed_hard(game: str, seed: int | None = None, playouts: int = PLAYOUTS) -> Any:
    """A ``hard`` player of ``game`` that searches ``playouts`` sampled deals per decision."""
    return player(game, "hard", seed, playouts=playouts, clock=still)
