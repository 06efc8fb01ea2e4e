"""The slash commands: every listed command of `bot.commands.registry` as an `app_commands` command,
with names and descriptions in zh-CN, zh-TW and en-US from the catalogues, choices where the
answers are few, and autocomplete from the player's own hand for cards.

Each kind of argument (`bot.commands.registry.Arg`) is one kind of Discord field; a command is made
from its options' kinds, so a new command needs no code here unless it takes a new kind.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.commands.chat import games_text
from bot.commands.registry import LISTED, Arg, Option, Spec
from bot.games import GAME_NAMES
from bot.i18n import LANGUAGES, t
from bot.reading.table_options import AI_LEVELS

Run = Callable[[discord.Interaction[Any], str, list[str]], Awaitable[None]]
Suggest = Callable[[discord.Interaction[Any], str, str], list[tuple[str, str]]]
"""(interaction, what to complete, typed so far) → up to 25 suggestions, each (shown, value)."""
LOCALES = {
    discord.Locale.chinese: "zh-Hans",
    discord.Locale.taiwan_chinese: "zh-Hant",
    discord.Locale.american_english: "en",
    discord.Locale.british_english: "en",
}
CHOICES: dict[Arg, tuple[str, ...]] = {
    Arg.GAME: GAME_NAMES,
    Arg.LEVEL: AI_LEVELS,
    Arg.SUIT: ("S", "H", "C", "D", "none"),
    Arg.WHOSE: ("me", "partner"),
    Arg.YES_NO: ("yes", "no"),
    Arg.LANGUAGE: LANGUAGES,
}
"""Arguments with a few fixed answers: offered as choices."""
FIELD_TYPES: dict[Arg, Any] = {
    Arg.SEAT: app_commands.Range[int, 1, 4],  # seats as people number them
    Arg.POINTS: app_commands.Range[int, 0, 300],
    Arg.ON_OFF: bool,
}
"""Arguments that are not text (the rest are ``str``)."""


class CatalogueTranslator(app_commands.Translator):
    """Command names and descriptions from the gettext catalogues."""

    async def translate(
        self, string: locale_str, locale: discord.Locale, context: Any
    ) -> str | None:
        language = LOCALES.get(locale)
        if language is None:
            return None
        key = string.extras.get("key", string.message)
        text = t(language, key, games=games_text(language))
        return text if text != key else None


def command_name_key(command: str) -> str:
    """Message id of a command's name where a platform lets names be translated."""
    return f"command-name:{command}"


def _words(option: Option, value: Any) -> list[str]:
    """What a field's answer is as a text command's arguments."""
    if value is None or value == "":
        return []
    if isinstance(value, bool):
        return ["on" if value else "off"]
    return str(value).split() if option.kind == Arg.CARDS else [str(value)]


def build_commands(tree: app_commands.CommandTree[Any], run: Run, suggest: Suggest) -> None:
    """Register every listed command on ``tree``; each runs ``run(interaction, name, args)``."""
    for spec in LISTED:
        tree.add_command(_command(spec, run, suggest))


def _command(spec: Spec, run: Run, suggest: Suggest) -> app_commands.Command[Any, Any, None]:
    async def callback(interaction: discord.Interaction[Any], **fields: Any) -> None:
        args = [word for option in spec.options for word in _words(option, fields.get(option.name))]
        await run(interaction, spec.name, args)

    parameters = [
        inspect.Parameter(
            "interaction",
            inspect.Parameter.POSITIONAL_OR_KEYWORD,
            annotation=discord.Interaction[Any],
        )
    ]
    parameters += [_parameter(option) for option in spec.options]
    callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    callback.__annotations__ = {p.name: p.annotation for p in parameters} | {"return": None}
    described = {o.name: locale_str(o.about) for o in spec.options}
    choices = {
        o.name: [app_commands.Choice(name=c, value=c) for c in CHOICES[o.kind]]
        for o in spec.options
        if o.kind in CHOICES
    }
    function: Any = app_commands.describe(**described)(callback) if described else callback
    if choices:
        function = app_commands.choices(**choices)(function)
    summary = locale_str(t("en", spec.summary, games=games_text("en")), key=spec.summary)
    command: app_commands.Command[Any, Any, None] = app_commands.Command(
        name=locale_str(spec.name, key=command_name_key(spec.name)),
        description=summary,
        callback=function,
    )
    for option in spec.options:
        if option.completed:
            command.autocomplete(option.name)(_completer(option, spec, suggest))
    return command


def _parameter(option: Option) -> inspect.Parameter:
    kind: Any = FIELD_TYPES.get(option.kind, str)
    default: Any = inspect.Parameter.empty
    if not option.required:
        kind, default = kind | None, None
    return inspect.Parameter(
        option.name, inspect.Parameter.KEYWORD_ONLY, annotation=kind, default=default
    )


def _completer(
    option: Option, spec: Spec, suggest: Suggest
) -> Callable[[discord.Interaction[Any], str], Coroutine[Any, Any, list[app_commands.Choice[str]]]]:
    what = "preset" if option.kind == Arg.PRESET else spec.name

    async def complete(
        interaction: discord.Interaction[Any], typed: str
    ) -> list[app_commands.Choice[str]]:
        return _choices(suggest(interaction, what, typed))

    return complete


def _choices(values: list[tuple[str, str]]) -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=shown[:100], value=value[:100]) for shown, value in values[:25]
    ]
