"""``/practice GAME [easy|normal|hard] [timed]`` in a private chat with the bot: the person
and three AI players of the chosen level (the table's ``ai_level`` by default), dealt at once,
at a practice table (`bot.table.practice`, the table option ``practice_mode``): hints without limit,
no time limit unless ``timed``, a lesson beside each refusal, not counted in /stats or the
records. ``/stop`` ends it; ``/practice`` again opens the next."""

from __future__ import annotations

from dataclasses import replace

from bot.commands.chat import ChatHost, games_text, reply
from bot.games import FRONTS
from bot.i18n import N_, t
from bot.reading.command import Command
from bot.reading.table_options import AI_LEVEL_WORDS, DEFAULTS
from bot.table import lobby
from bot.table.effects import Effects
from bot.table.state import CLOSED, Table
from bot.views.outgoing import Kind, Outgoing

TIMED_WORDS = frozenset({"timed", "计时", "計時"})
OPENED = N_(
    "Practice: {game} with three AI players ({level}). Ask /hint (or press Hint) on your turn "
    "for the move the hard AI player would make, and why. {time} These hands do not count in "
    "/stats. /stop ends the practice."
)
UNTIMED = N_("No time limit: take your time.")
TIMED = N_("Your turns are timed as at any table.")


async def practice(host: ChatHost, command: Command, table: Table | None, lang: str) -> Effects:
    if not command.private:
        return reply(
            command,
            lang,
            "Practice happens in a private chat with the bot: send it "
            "/practice situan (or erqiwang).",
        )
    if table is not None and table.state != CLOSED:
        return reply(
            command, lang, "A table is already open here: /stop ends it, then /practice again."
        )
    words = [word.lower() for word in command.args]
    game = words[0] if words else ""
    if game not in FRONTS:
        return reply(command, lang, "Say /practice and the game: {games}.", games=games_text(lang))
    levels = [AI_LEVEL_WORDS[w] for w in words[1:] if w in AI_LEVEL_WORDS]
    level = levels[0] if levels else DEFAULTS.ai_level
    timed = any(word in TIMED_WORDS for word in words[1:])
    table = host.open_table(command, game, FRONTS[game].game.default_preset, lang)
    practice = "timed" if timed else "on"
    table.set_table_options(replace(table.table_options, practice_mode=practice, ai_level=level))
    text = t(
        lang,
        OPENED,
        game=t(lang, FRONTS[game].title),
        level=t(lang, level),
        time=t(lang, TIMED if timed else UNTIMED),
    )
    effects = Effects(
        out=[Outgoing(Kind.REPLY, command.chat, text, user=command.user)], table_changed=True
    )

    def step(name: str) -> Command:  # the host's own lobby commands, as if typed in turn
        return Command(
            name, (), command.user, command.user_name, command.chat, command.private, command.lang
        )

    effects.extend(lobby.join(table, step("join")))
    for _ in range(3):
        effects.extend(lobby.addbot(table, step("addbot")))
    effects.extend(lobby.start(table, step("start")))
    return effects
