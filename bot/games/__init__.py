"""Each game as the host presents it, registered in one map: the only place under `bot/`
that knows the games (`bot/games/<game>/`)."""

from __future__ import annotations

from bot.community.player_records import RecordReader
from bot.games.erqiwang import ErqiwangFront
from bot.games.erqiwang.records import ErqiwangRecords
from bot.games.game_front import AnyFront, BadInput, GameFront, Stamps
from bot.games.situan import SituanFront
from bot.games.situan.records import SituanRecords
from bot.i18n import t
from bot.reading.table_options import TABLE_OPTION_TITLES
from engine.games import GAME_NAMES

_BY_NAME: dict[str, AnyFront] = {front.name: front for front in (SituanFront(), ErqiwangFront())}
FRONTS: dict[str, AnyFront] = {name: _BY_NAME[name] for name in GAME_NAMES}
"""Each game's front, in the engine's order of the games (`engine.games`): a game with no
front fails here, at import."""

RECORD_READERS: dict[str, RecordReader] = {
    reader.game: reader for reader in (SituanRecords(), ErqiwangRecords())
}
"""Each game's reading of its hands for records and achievements
(`bot.community.player_records`)."""


def front_of(game: str) -> AnyFront:
    return FRONTS[game]


def preset_text(lang: str, game: str, preset: str) -> str:
    """A preset as people read it: the name to type, and what it is in ``lang``."""
    title = FRONTS[game].preset_titles.get(preset)
    return (
        preset
        if title is None
        else t(lang, "{preset} ({what})", preset=preset, what=t(lang, title))
    )


def setting_title(game: str, name: str) -> str | None:
    """Message id of what the setting ``name`` of a ``game`` table is (None: unknown)."""
    return FRONTS[game].option_titles.get(name) or TABLE_OPTION_TITLES.get(name)


def setting_text(lang: str, game: str, name: str) -> str:
    """A setting as people read it: the name to type, and what it is in ``lang``."""
    title = setting_title(game, name)
    return name if title is None else t(lang, "{preset} ({what})", preset=name, what=t(lang, title))


def presets_text(lang: str, game: str) -> str:
    """Every preset of ``game``, as people read them."""
    return t(lang, "; ").join(preset_text(lang, game, p) for p in presets(game))


def presets(game: str) -> tuple[str, ...]:
    """The presets of ``game`` (none for an unknown game)."""
    front = FRONTS.get(game)
    return () if front is None else front.game.presets


__all__ = [
    "FRONTS",
    "GAME_NAMES",
    "RECORD_READERS",
    "AnyFront",
    "BadInput",
    "GameFront",
    "Stamps",
    "front_of",
    "preset_text",
    "presets",
    "presets_text",
    "setting_text",
    "setting_title",
]
