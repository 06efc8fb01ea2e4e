"""The registry of games: each one's name and where its `Game` lives.

The one place outside the games' own packages that names them; `engine.game_of`,
`engine.ai.player` and the host's list of games are lookups in it. A game is imported when it
is first asked for, so that ``import engine`` stays light and a game's package may import the
engine's shared modules without a cycle.
"""

from __future__ import annotations

from importlib import import_module

from engine.game import AnyGame

_HOMES = {
    "situan": ("engine.situan", "SITUAN"),
    "erqiwang": ("engine.erqiwang", "ERQIWANG"),
}
"""Each game's name, and the module and attribute of its `Game`."""

GAME_NAMES: tuple[str, ...] = tuple(_HOMES)
"""The games, in the order menus list them."""


def game_of(name: str) -> AnyGame:
    """The game called ``name`` (one of `GAME_NAMES`); KeyError for others."""
    module, attribute = _HOMES[name]
    game: AnyGame = getattr(import_module(module), attribute)
    return game
