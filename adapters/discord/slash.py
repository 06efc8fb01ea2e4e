"""The slash commands: the text commands of ``bot.md`` as `app_commands`, with names and
descriptions in zh-CN, zh-TW and en-US from the catalogues, choices where the answers are
few, and autocomplete from the player's own hand for cards."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.command_menu import COMMAND_MENU, COMMAND_NAMES
from bot.i18n import N_, t

Run = Callable[[discord.Interaction[Any], str, list[str]], Awaitable[None]]
Suggest = Callable[[discord.Interaction[Any], str, str], list[tuple[str, str]]]
"""(interaction, command, typed so far) → up to 25 suggestions, each (shown, value)."""
LOCALES = {
    discord.Locale.chinese: "zh-Hans",
    discord.Locale.taiwan_chinese: "zh-Hant",
    discord.Locale.american_english: "en",
    discord.Locale.british_english: "en",
}
DESCRIPTIONS = dict(COMMAND_MENU)
SIMPLE = ("leave", "start", "next", "ready", "stop", "score", "rules", "help", "pass",
          "surrender", "bonus", "show", "hand", "export", "stats", "top")  # fmt: skip
"""Commands without options."""


class CatalogueTranslator(app_commands.Translator):
    """Command names and descriptions from the gettext catalogues."""

    async def translate(
        self, string: locale_str, locale: discord.Locale, context: Any
    ) -> str | None:
        language = LOCALES.get(locale)
        if language is None:
            return None
        key = string.extras.get("key", string.message)
        text = t(language, key)
        return text if text != key else None


def _name(command: str) -> locale_str:
    return locale_str(command, key=COMMAND_NAMES[command])


def _about(command: str) -> locale_str:
    return locale_str(DESCRIPTIONS[command])


def build_commands(tree: app_commands.CommandTree[Any], run: Run, suggest: Suggest) -> None:
    """Register every command on ``tree``; each runs ``run(interaction, name, args)``."""

    def simple(name: str) -> None:
        async def callback(interaction: discord.Interaction[Any]) -> None:
            await run(interaction, name, [])

        tree.add_command(app_commands.Command(name=_name(name), description=_about(name),
                                              callback=callback))  # fmt: skip

    for name in SIMPLE:
        simple(name)

    @tree.command(name=_name("new"), description=_about("new"))
    @app_commands.describe(game=locale_str(N_("Which game")),
                           preset=locale_str(N_("Preset (rule set)")))  # fmt: skip
    async def new(interaction: discord.Interaction[Any], game: Literal["situan", "erqiwang"],
                  preset: str | None = None) -> None:  # fmt: skip
        await run(interaction, "new", [game] + ([preset] if preset else []))

    @new.autocomplete("preset")
    async def presets(interaction: discord.Interaction[Any], typed: str) -> list[Any]:
        return _choices(suggest(interaction, "preset", typed))

    @tree.command(name=_name("join"), description=_about("join"))
    @app_commands.describe(seat=locale_str(N_("Seat number 0–3")))
    async def join(interaction: discord.Interaction[Any],
                   seat: app_commands.Range[int, 0, 3] | None = None) -> None:  # fmt: skip
        await run(interaction, "join", [] if seat is None else [str(seat)])

    @tree.command(name=_name("addbot"), description=_about("addbot"))
    @app_commands.describe(level=locale_str(N_("AI level (the table's ai_level if left out)")))
    async def addbot(interaction: discord.Interaction[Any],
                     level: Literal["easy", "normal", "hard"] | None = None) -> None:  # fmt: skip
        await run(interaction, "addbot", [level] if level else [])

    @tree.command(name=_name("kick"), description=_about("kick"))
    @app_commands.describe(seat=locale_str(N_("Seat number 0–3")))
    async def kick(interaction: discord.Interaction[Any],
                   seat: app_commands.Range[int, 0, 3]) -> None:  # fmt: skip
        await run(interaction, "kick", [str(seat)])

    @tree.command(name=_name("play"), description=_about("play"))
    @app_commands.describe(cards=locale_str(N_("Cards, e.g. 7777 or S10 S10 LJ")))
    async def play(interaction: discord.Interaction[Any], cards: str) -> None:
        await run(interaction, "play", cards.split())

    @play.autocomplete("cards")
    async def playable(interaction: discord.Interaction[Any], typed: str) -> list[Any]:
        return _choices(suggest(interaction, "play", typed))

    @tree.command(name=_name("bury"), description=_about("bury"))
    @app_commands.describe(cards=locale_str(N_("Eight cards to bury")))
    async def bury(interaction: discord.Interaction[Any], cards: str) -> None:
        await run(interaction, "bury", cards.split())

    @tree.command(name=_name("bid"), description=_about("bid"))
    @app_commands.describe(points=locale_str(N_("Points to bid")))
    async def bid(interaction: discord.Interaction[Any],
                  points: app_commands.Range[int, 0, 300]) -> None:  # fmt: skip
        await run(interaction, "bid", [str(points)])

    @tree.command(name=_name("trump"), description=_about("trump"))
    @app_commands.describe(suit=locale_str(N_("Trump suit")))
    async def trump(interaction: discord.Interaction[Any],
                    suit: Literal["S", "H", "C", "D", "none"]) -> None:  # fmt: skip
        await run(interaction, "trump", [suit])

    @tree.command(name=_name("reveal"), description=_about("reveal"))
    @app_commands.describe(whose=locale_str(N_("Whose hand to show")))
    async def reveal(interaction: discord.Interaction[Any],
                     whose: Literal["me", "partner"]) -> None:  # fmt: skip
        await run(interaction, "reveal", [whose])

    @tree.command(name=_name("auto"), description=_about("auto"))
    @app_commands.describe(on=locale_str(N_("On or off")))
    async def auto(interaction: discord.Interaction[Any], on: bool) -> None:
        await run(interaction, "auto", ["on" if on else "off"])

    @tree.command(name=_name("settings"), description=_about("settings"))
    @app_commands.describe(name=locale_str(N_("Option name")), value=locale_str(N_("New value")))
    async def settings(interaction: discord.Interaction[Any], name: str | None = None,
                       value: str | None = None) -> None:  # fmt: skip
        await run(interaction, "settings", [x for x in (name, value) if x])

    @tree.command(name=_name("lang"), description=_about("lang"))
    @app_commands.describe(language=locale_str(N_("Language")))
    async def lang(interaction: discord.Interaction[Any],
                   language: Literal["zh-Hans", "zh-Hant", "en"]) -> None:  # fmt: skip
        await run(interaction, "lang", [language])


def _choices(values: list[tuple[str, str]]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=shown[:100], value=value[:100])
            for shown, value in values[:25]]  # fmt: skip
