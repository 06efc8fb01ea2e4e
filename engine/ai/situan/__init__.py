"""四团's AI players: ``easy`` (`easy`), ``normal`` (`normal`, the ``easy`` plan with three
habits more) and ``hard`` (`search`: sampled deals of the hidden cards, played out by
``normal``)."""

from __future__ import annotations

from typing import Any

from engine.ai.situan.easy import SituanEasyAI
from engine.ai.situan.normal import SituanAI
from engine.ai.situan.search import SituanSearchAI
from engine.game import Player


def ai_player(level: str, seed: int | None = None, **search: Any) -> Player:
    """The player of ``level``; only ``hard`` uses ``seed`` and the search options."""
    if level == "hard":
        return SituanSearchAI(seed, **search)
    return SituanEasyAI() if level == "easy" else SituanAI()


__all__ = ["SituanAI", "SituanEasyAI", "SituanSearchAI", "ai_player"]
