"""四团 as the host presents it."""

from bot.games.situan.front import SituanFront

__all__ = ["SituanFront"]
