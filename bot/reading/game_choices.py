"""The games and presets a player may name, from the engine's registry alone — not the games'
fronts, which draw and take a while to load: what the command line offers and checks before
anything else is loaded."""

from __future__ import annotations

from engine import GAME_NAMES, game_of

__all__ = ["GAME_NAMES", "preset_names"]


def preset_names(game: str) -> tuple[str, ...]:
    """The presets of ``game`` (none for an unknown game)."""
    return tuple(game_of(game).presets) if game in GAME_NAMES else ()
