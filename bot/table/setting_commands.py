"""A table's settings, language and rules as players ask and change them: /settings (the table's own
options and the game's rule options, checked at the door, kept only if all of it passed), /lang and
/rules."""

from __future__ import annotations

from typing import Any

from bot.games import preset_text, presets_text, setting_text, setting_title
from bot.i18n import LANGUAGES, N_, normalize_language, t
from bot.reading.command import Command
from bot.reading.echo import echoed
from bot.reading.table_options import (
    TABLE_OPTION_NAMES,
    BadSetting,
    read_rule_value,
)
from bot.table.effects import Effects
from bot.table.state import BETWEEN, LOBBY, Table
from bot.views.outgoing import Kind, Outgoing
from engine.errors import RecordError


def lang(table: Table, command: Command) -> Effects:
    wanted = normalize_language(command.args[0]) if command.args else None
    if wanted is None:
        languages = t(table.answer_lang(command), ", ").join(LANGUAGES)
        return table.reply(command, "Languages: {languages}", languages=languages)
    seated = table.seat_of(command.user) is not None
    if command.private:
        if not seated:
            return table.reply(command, "You have no seat at this table.")
        table.set_player_language(command.user, wanted, command.user_name)
    else:
        if not seated and command.user != table.host and not command.admin:
            return table.reply(command, "Only the players at this table can change its language.")
        table.set_language(wanted)
    said = (
        N_("Language set.")
        if command.private
        else N_(
            "The table speaks this language now. Private messages keep each player's own: "
            "/lang in a private chat with the bot sets it."
        )
    )  # the group's /lang leaves the private hands as they were: say so
    return Effects(
        out=[Outgoing(Kind.REPLY, table.chat, t(wanted, said), user=command.user)],
        table_changed=True,
    )


def settings(table: Table, command: Command) -> Effects:
    if not command.args:
        language = table.answer_lang(command)
        preset = preset_text(language, table.game, table.preset)
        options = {"preset": preset, **table.rules.options(), **table.table_options.shown()}
        lines = [
            t(language, "Settings (the host changes them in the lobby: /settings NAME VALUE):")
        ]
        for name, value in options.items():
            what = setting_title(table.game, name)
            lines.append(f"{name} = {value}" + (f" — {t(language, what)}" if what else ""))
        return Effects(out=[Outgoing(Kind.REPLY, table.chat, "\n".join(lines), user=command.user)])
    if (refused := table.host_only(command)) is not None:
        return refused
    if table.state not in (LOBBY, BETWEEN):
        return table.reply(command, "Settings change only between hands.")
    if len(command.args) != 2:
        return table.reply(command, "Say /settings NAME VALUE.")
    name, value = command.args
    return change_setting(table, command, name, value)


def change_setting(table: Table, command: Command, name: str, value: str) -> Effects:
    """Check the value at the door (type, bounds), then let the engine judge rule options
    against the rules; nothing is kept unless all of it passed."""
    if name == "rated" and not command.admin:  # a group's ratings are its admins' to turn on
        return table.reply(command, "Only the group's administrators turn rating on or off.")
    try:
        if name in TABLE_OPTION_NAMES:
            table.set_table_options(table.table_options.with_typed(name, value))
            return _changed(table, name, getattr(table.table_options, name))
        preset, options = table.preset, dict(table.options)
        if name == "preset":
            if value not in table.front.game.presets:
                choices = presets_text(table.answer_lang(command), table.game)
                return table.reply(command, "Presets: {choices}.", choices=choices)
            preset, options = value, {}
        elif name in table.rules.options():
            options[name] = read_rule_value(getattr(table.rules, name), value)
            options.update(table.front.settings_that_follow(name, options[name]))
        else:
            names = t(table.answer_lang(command), ", ").join(
                ["preset", *table.rules.options(), *TABLE_OPTION_NAMES]
            )
            return table.reply(
                command,
                "Unknown setting {name}. Settings: {names}.",
                name=echoed(name),
                names=names,
            )
        table.change_rules(preset, options)
    except BadSetting as bad:
        return table.reply(command, bad.key, **bad.values)
    except RecordError as error:
        if "most" in error.facts:
            return table.reply(
                command,
                "{name} is at most {most} here (the points of the deck).",
                name=name,
                most=error.facts["most"],
            )
        return table.reply(command, "Bad value {value} for {name}.", value=echoed(value), name=name)
    shown = value if name == "preset" else options[name]
    return _changed(table, name, shown)


def _changed(table: Table, name: str, value: Any) -> Effects:
    if isinstance(value, bool):
        value = table.say(N_("on") if value else N_("off"))
    elif name == "ai_level":
        value = table.say(value)
    elif name == "preset":
        value = preset_text(table.lang, table.game, value)
    shown = setting_text(table.lang, table.game, name)
    return Effects(
        out=[table.group("{name} is now {value}.", name=shown, value=value)], table_changed=True
    )
