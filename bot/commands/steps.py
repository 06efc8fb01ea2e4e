"""A table's two kinds of step: a command (`handle`) and time passing (`tick`). Each returns
`Effects` — what to store, then what to send; the manager stores first and sends after, so
nothing a player saw as accepted can be lost.

The commands' handlers are found in the registry (`bot.commands.registry`): the lobby's in
`bot.table.lobby`, the hand's in `bot.table.playing`.
"""

from __future__ import annotations

from bot.commands.registry import MATCH_WIDE, QUICK_ROOM, table_handler
from bot.community.quick_seating import is_quick
from bot.i18n import N_
from bot.reading.command import Command
from bot.reading.refusals import Refusal
from bot.table import lobby, playing
from bot.table.effects import Effects
from bot.table.state import BETWEEN, LOBBY, PLAYING, Table
from bot.views.controls import Stamp


def handle(table: Table, command: Command) -> Effects:
    handler = table_handler(command.name)
    if handler is None:
        return table.reply(command, "Unknown command. Try /help.")
    if is_quick(table.chat) and command.name not in QUICK_ROOM:
        return table.reply(command, QUICK_ROOM_ONLY)
    stale = None if command.stamp is None else _stale(table, command.stamp, command.name)
    if stale is not None:
        return table.reply(command, stale)
    try:
        effects = handler(table, command)
    except Refusal as bad:
        return table.reply(command, bad.key, **bad.values)
    if (effects.table_changed or effects.actions) and table.learn_title(command):
        effects.table_changed = True  # only what is accepted is kept (never a stranger's)
    if table.state == LOBBY and effects.table_changed:  # activity keeps a lobby open
        table.keep_lobby_open()
    return effects


QUICK_ROOM_ONLY = N_(
    "At a quick table the room deals, seats and hosts: play with your hand's buttons or "
    "/play, /hand shows your cards, /leave leaves (the table plays for you)."
)


def _stale(table: Table, text: str, name: str) -> str | None:
    """Why a button press no longer applies, or None when its stamp is current."""
    stamp = Stamp.read(text)
    if stamp is None:
        return N_("That button is not valid.")
    if name in MATCH_WIDE and stamp.table == table.tag:
        return None
    if stamp.table != table.tag or stamp.hand != table.hand_number:
        return N_("That button belongs to an earlier hand.")
    if stamp.turn is not None and stamp.turn != table.turn_count:
        return N_("That button is out of date: the game has moved on.")
    return None


def tick(table: Table, level: str | None = None) -> Effects:
    """Act for whoever's time is up: AI seats, 托管, time-outs, the ready timer; remind a
    person whose time is running out. ``level``: an AI seat plays at this level instead of
    its own (its own would keep the table waiting: `bot.ai_seats.worker_pool`)."""
    wake = table.next_wake()
    if wake is None or table.clock() < wake:
        return Effects()
    if table.reminder_at is not None:
        if table.deadline is None or table.clock() < table.deadline:
            return playing.remind(table)
        table.reminded()  # the time ran out first: the table acts now instead
    if table.state == LOBBY:
        effects = Effects(out=table.sent.retire_buttons())  # the lobby post's buttons
        effects.out.append(table.group("The lobby was idle too long and closes."))
        effects.extend(lobby.close(table))
        return effects
    if table.state == BETWEEN:
        return lobby.close_held(table) if table.on_hold else lobby.ready_timeout(table)
    if table.state != PLAYING or table.hand is None or table.turn_seat is None:
        return Effects()
    table.note_presence()
    if table.idle_for() >= 60 * table.table_options.idle_minutes:
        return lobby.close_idle(table)
    if table.carried_auto:
        return playing.carry_auto(table)
    return playing.act_for_seat(table, table.turn_seat, level)
