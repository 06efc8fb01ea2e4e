"""二七王's AI players: ``easy`` (`easy`), ``normal`` (`normal`, bidding from an estimate of
the defenders' take) and ``hard`` (`search`: sampled deals of the hidden cards, played out by
``normal``)."""

from __future__ import annotations

from typing import Any

from engine.ai.erqiwang.easy import ErqiwangEasyAI
from engine.ai.erqiwang.normal import ErqiwangAI
from engine.ai.erqiwang.search import ErqiwangSearchAI
from engine.game import Player


def ai_player(level: str, seed: int | None = None, **search: Any) -> Player:
    """The player of ``level``; only ``hard`` uses ``seed`` and the search options."""
    if level == "hard":
        return ErqiwangSearchAI(seed, **search)
    return ErqiwangEasyAI() if level == "easy" else ErqiwangAI()


__all__ = ["ErqiwangAI", "ErqiwangEasyAI", "ErqiwangSearchAI", "ai_player"]
