"""Each game as the host presents it, registered in one map: the only place under `bot/`
that knows the games (`bot/games/<game>/`)."""

from __future__ import annotations

from bot.games.base import BadInput, GameFront, Stamps
from bot.games.erqiwang import ErqiwangFront
from bot.games.situan import SituanFront

FRONTS: dict[str, GameFront] = {"situan": SituanFront(), "erqiwang": ErqiwangFront()}
GAME_NAMES = tuple(FRONTS)


def front_of(game: str) -> GameFront:
    return FRONTS[game]


def presets(game: str) -> tuple[str, ...]:
    """The presets of ``game`` (none for an unknown game)."""
    front = FRONTS.get(game)
    return () if front is None else front.game.presets


__all__ = ["FRONTS", "GAME_NAMES", "BadInput", "GameFront", "Stamps", "front_of", "presets"]
