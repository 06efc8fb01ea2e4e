"""AI players. A player sees only its seat's view and chooses among the engine's legal
actions (or, for what the engine cannot list — a bury — builds one that passes `check`).

>>> from engine import game_of
>>> from engine.ai import player
>>> game = game_of("situan")
>>> hand = game.deal(game.rules(), seed=1)
>>> seat = hand.to_act
>>> action = player("situan").decide(hand.view(seat), hand.legal_actions(seat))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from engine.actions import Action

LEVELS = ("easy", "normal")
"""AI levels a seat may have; ``easy`` is today's heuristic player, as is ``normal``."""


class Player(Protocol):
    def decide(self, view: Any, legal: Sequence[Action]) -> Action: ...


def player(game_name: str, level: str = "normal", seed: int | None = None) -> Player:
    """An AI player of ``game_name`` at ``level``; ``seed`` fixes its random choices."""
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}: one of {', '.join(LEVELS)}")
    if game_name == "situan":
        from engine.ai.situan import SituanAI

        return SituanAI()
    if game_name == "erqiwang":
        from engine.ai.erqiwang import ErqiwangAI

        return ErqiwangAI()
    raise KeyError(game_name)
