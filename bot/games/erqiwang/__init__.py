"""二七王 as the host presents it."""

from bot.games.erqiwang.front import ErqiwangFront

__all__ = ["ErqiwangFront"]
