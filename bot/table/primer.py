"""/rules: a short primer of the table's game in the reader's language — four lines (deal,
what beats what, points, how a hand ends and is scored) with a picture of real card faces
(`bot.games.game_front.GameFront.primer_picture`, drawn by `bot.pictures`) — then the fuller
summary and the tips."""

from __future__ import annotations

from functools import partial

from bot.i18n import t
from bot.pictures import render_table
from bot.reading.command import Command
from bot.table.effects import Effects
from bot.table.state import Table
from bot.views.outgoing import Kind, Outgoing


def rules(table: Table, command: Command) -> Effects:
    language = table.answer_lang(command)
    front = table.front
    parts = [t(language, front.primer_text), t(language, front.rules_text)]
    if front.tips_text:
        parts.append(t(language, front.tips_text))
    text = (
        "\n\n".join(parts)
        + "\n"
        + t(language, "This table's options: /settings. Every command: /help.")
    )
    picture = partial(render_table, front.primer_picture(language))
    return Effects(out=[Outgoing(Kind.REPLY, table.chat, text, user=command.user, picture=picture)])
