"""``/replay [N]``: a hand of this table's match stepped through on the web, trick by trick with
every hand shown, from its stored record — hand N, or the last one settled. Given at the table's
own chat (a member of the group) or privately by a player seated there, it is answered to the
asker alone with a button to the replay page (``/replay?hand=N``), which the platform's web door
makes whole (Telegram: a Mini App button, whose ``initData`` the page proves the asker with);
where no web table is served, the button is left out and the web table's own Replay button
(on its settlement) does the same."""

from __future__ import annotations

from bot.i18n import N_, t
from bot.reading.command import Command
from bot.table.effects import Effects
from bot.table.state import Table
from bot.views.outgoing import Button, Kind, Outgoing

REPLAY_PAGE = "/replay?hand={number}"
"""The replay page of a hand of the table, relative to the web table's public base."""


def settled(table: Table) -> int:
    """The number of the last hand of the match that is over (0: none yet)."""
    hand = table.hand
    return table.hand_number if hand is not None and hand.over else table.hand_number - 1


def replay(table: Table, command: Command) -> Effects:
    last = settled(table)
    if last < 1:
        return table.reply(
            command, "No hand of this match is over yet: /replay works once one is settled."
        )
    number = last
    if command.args:
        word = command.args[0]
        number = int(word) if word.isascii() and word.isdigit() and len(word) <= 4 else 0
        if not 1 <= number <= last:
            return table.reply(
                command, "Say /replay and a hand number from 1 to {last}.", last=last
            )
    lang = table.answer_lang(command)
    text = t(lang, N_("Hand {number}, trick by trick, every hand shown:"), number=number)
    button = Button(
        t(lang, "Replay this hand"), "", "", url=REPLAY_PAGE.format(number=number), opens_app=True
    )
    return Effects(
        out=[Outgoing(Kind.REPLY, table.chat, text, user=command.user, buttons=((button,),))]
    )
