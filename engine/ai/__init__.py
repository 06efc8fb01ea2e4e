"""AI players. A player sees only its seat's view and chooses among the engine's legal
actions (or, for what the engine cannot list — a bury — builds one that passes `check`).

Levels: ``easy`` is the first heuristic player, frozen as the baseline; ``normal`` the
improved heuristic (bidding from an estimate of the defenders' take, cheaper discards);
``hard`` a search over sampled deals of the hidden cards, played out by ``normal``.

>>> from engine import game_of
>>> from engine.ai import player
>>> game = game_of("situan")
>>> hand = game.deal(game.rules(), seed=1)
>>> seat = hand.to_act
>>> action = player("situan").decide(hand.view(seat), hand.legal_actions(seat))
"""

from __future__ import annotations

from typing import Any

from engine.game import Player
from engine.games import game_of

LEVELS = ("easy", "normal", "hard")
"""AI levels a seat may have, weakest first."""


def player(game_name: str, level: str = "normal", seed: int | None = None, **search: Any) -> Player:
    """An AI player of ``game_name`` at ``level``; ``seed`` fixes its random choices.

    ``hard`` takes the search options ``budget`` (seconds per decision; default 0.3 in
    四团, 0.15 in 二七王), ``playouts`` (sampled deals per decision at most) and ``clock``."""
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}: one of {', '.join(LEVELS)}")
    return game_of(game_name).ai_player(level, seed, **search)


__all__ = ["LEVELS", "Player", "player"]
