"""The lobby and the match around the hands: seats, start, ready, stop, settings, languages.

Every function here is a command handler ``(table, command) -> Effects`` (see `COMMANDS`) or
a step the table takes by itself (`close`, `ready_timeout`).
"""

from __future__ import annotations

from dataclasses import replace

from bot.games import BadInput
from bot.i18n import N_, t
from bot.reading.command import Command
from bot.reading.table_options import (
    read_ai_level,
)
from bot.table import dealing, hand_views, playing
from bot.table.effects import Effects
from bot.table.seats import Seat
from bot.table.state import BETWEEN, LOBBY, ONLY_HOST, PLAYING, Phase, Table
from bot.views.outgoing import Button, Kind, Outgoing
from bot.views.shared_texts import ledger_text, seat_number
from engine.actions import Auto


def lobby_buttons(table: Table) -> tuple[Button, ...]:
    """Join, an AI player, start: the lobby's buttons (a press is the same text command)."""
    stamp = table.stamp().text()
    return (
        Button(table.say("Join"), "/join", stamp),
        Button(table.say("Add AI"), "/addbot", stamp),
        Button(table.say("Start"), "/start", stamp),
    )


def _seat_argument(command: Command) -> int | None:
    if not command.args:
        return None
    text = command.args[0]
    if not (text.isascii() and text.isdigit() and len(text) == 1) or not 1 <= int(text) <= 4:
        raise BadInput("Seats are numbered 1 to 4.")
    return int(text) - 1  # people count from 1, the table from 0


def join(table: Table, command: Command) -> Effects:
    if table.state not in (LOBBY, BETWEEN):
        return table.reply(command, "A hand is running; join when it is over.")
    if table.seat_of(command.user) is not None:
        return table.reply(command, "You already have a seat.")
    wanted = _seat_argument(command)
    back = _stand_in_of(table, command.user)
    if back is not None and wanted in (None, back):
        return _come_back(table, command, back)
    free = [i for i, seat in enumerate(table.seats) if seat is None]
    if wanted is not None:
        if wanted not in free:
            return table.reply(command, "Seat {seat} is taken.", seat=seat_number(wanted))
        index = wanted
    elif free:
        index = free[0]
    else:
        return table.reply(command, "The table is full.")
    table.sit(index, Seat(command.user, command.user_name, ready=True))
    table.remember(command)
    line = table.group(
        "{name} sits at seat {seat}.", name=command.user_name, seat=seat_number(index)
    )
    return Effects(out=[line], table_changed=True)


def _stand_in_of(table: Table, user: str) -> int | None:
    """The seat an AI player keeps for ``user`` since they were removed during a hand."""
    for index, seat in enumerate(table.seats):
        if seat is not None and seat.ai and seat.stands_in_for == user:
            return index
    return None


def _come_back(table: Table, command: Command, index: int) -> Effects:
    """A player removed during a hand takes their seat back from the AI that kept it."""
    table.sit(index, Seat(command.user, command.user_name, ready=True))
    table.remember(command)
    line = table.group(
        "{name} is back at seat {seat}.", name=command.user_name, seat=seat_number(index)
    )
    return Effects(out=[line], table_changed=True)


def leave(table: Table, command: Command) -> Effects:
    index = table.seat_of(command.user)
    if index is None:
        return table.reply(command, "You have no seat at this table.")
    seat = table.seats[index]
    assert seat is not None
    if table.state == PLAYING and table.hand is not None:
        if seat.left:
            return table.reply(command, "You have left already; the table plays for you.")
        table.mark_left(index)
        effects = playing.apply_action(table, Auto(index, True))
        effects.out.append(
            table.group(
                "{name} left; the table plays for them until the hand is over.", name=seat.name
            )
        )
        effects.table_changed = True
        effects.out += _hand_over_host(table, command.user)
        return effects
    table.sit(index, None)
    out = [table.group("{name} left the table.", name=seat.name)]
    return Effects(out=out + _hand_over_host(table, command.user), table_changed=True)


def _hand_over_host(table: Table, leaving: str) -> list[Outgoing]:
    """When the host leaves, the next seated player who is still there hosts the table."""
    if leaving != table.host:
        return []
    for seat in table.seats:
        if seat is not None and seat.user is not None and seat.user != leaving and not seat.left:
            table.make_host(seat.user)
            return [table.group("{name} is now the host.", name=seat.name)]
    return []


def ai_seat(table: Table, index: int, level: str) -> Seat:
    """An AI player of ``level`` for seat ``index``, ready for every hand."""
    return Seat(None, table.say("AI {seat}", seat=seat_number(index)), ready=True, level=level)


def addbot(table: Table, command: Command) -> Effects:
    if (refused := table.host_only(command)) is not None:
        return refused
    if table.state not in (LOBBY, BETWEEN):
        return table.reply(command, "Seats change only between hands.")
    free = [i for i, seat in enumerate(table.seats) if seat is None]
    if not free:
        return table.reply(command, "The table is full.")
    level = read_ai_level(command.args[0]) if command.args else table.table_options.ai_level
    index = free[0]
    table.sit(index, ai_seat(table, index, level))
    line = table.group(
        "An AI player ({level}) sits at seat {seat}.",
        level=table.say(level),
        seat=seat_number(index),
    )
    return Effects(out=[line], table_changed=True)


def kick(table: Table, command: Command) -> Effects:
    """``/kick SEAT`` (the host, a chat admin): between hands the seat is freed; during a
    hand an AI player takes the person's seat at once and the hand goes on — they may come
    back with /join from the next hand."""
    if (refused := table.host_only(command)) is not None:
        return refused
    index = _seat_argument(command)
    if index is None or table.seats[index] is None:
        return table.reply(command, "That seat is empty.")
    seat = table.seats[index]
    assert seat is not None
    if table.state == PLAYING and table.hand is not None:
        if seat.ai:
            return table.reply(command, "An AI player leaves only between hands.")
        return _replace_by_ai(table, command, index)
    table.sit(index, None)
    out = [
        table.group("{name} was removed from seat {seat}.", name=seat.name, seat=seat_number(index))
    ]
    if seat.user is not None:
        out += _tell_the_removed(table, command, index, seat.user, in_hand=False)
        out += _hand_over_host(table, seat.user)
    return Effects(out=out, table_changed=True)


def _tell_the_removed(
    table: Table, command: Command, index: int, user: str, in_hand: bool
) -> list[Outgoing]:
    """The person removed from ``index`` is told privately, in their language, why and by
    whom; in a hand, their private hand message is retired first (its buttons off: it is
    not theirs to play any more). Asked while they still sit there."""
    out = []
    if in_hand:
        out.append(replace(hand_views.private_hand(table, index), buttons=()))
    lang = table.lang_of(user)
    key = (
        N_(
            "{host} removed you from seat {seat} at {table}: an AI player plays the rest of "
            "this hand for you. Say /join there from the next hand to take your seat back."
        )
        if in_hand
        else N_(
            "{host} removed you from seat {seat} at {table}. Say /join there to sit down again."
        )
    )
    text = t(lang, key, host=command.user_name, seat=seat_number(index), table=table.label(lang))
    out.append(Outgoing(Kind.PRIVATE, table.chat, text, user=user))
    return out


def _replace_by_ai(table: Table, command: Command, index: int) -> Effects:
    seat = table.seats[index]
    assert seat is not None and seat.user is not None and table.hand is not None
    stand_in = ai_seat(table, index, table.table_options.ai_level)
    stand_in.stands_in_for = seat.user
    effects = Effects(table_changed=True)
    effects.out += _tell_the_removed(table, command, index, seat.user, in_hand=True)
    table.stand_in(index, stand_in)
    effects.out.append(
        table.group(
            "{name} was removed from seat {seat}; an AI player takes over the hand. They may "
            "come back with /join from the next hand.",
            name=seat.name,
            seat=seat_number(index),
        )
    )
    effects.out += _hand_over_host(table, seat.user)
    return effects


def host(table: Table, command: Command) -> Effects:
    """``/host SEAT``: the host (or a chat admin) hands the host role to the person there."""
    if command.user != table.host and not command.admin:
        return table.reply(
            command, "Only the host or an admin of this chat can hand the host role over."
        )
    index = _seat_argument(command)
    if index is None:
        return table.reply(command, "Say /host and the seat of the new host (1 to 4).")
    seat = table.seats[index]
    if seat is None or seat.user is None or seat.left:
        return table.reply(
            command,
            "Only a person at the table can host it: seat {seat} has none.",
            seat=seat_number(index),
        )
    if seat.user == table.host:
        return table.reply(command, "{name} hosts the table already.", name=seat.name)
    table.make_host(seat.user)
    return Effects(out=[table.group("{name} is now the host.", name=seat.name)], table_changed=True)


def start(table: Table, command: Command) -> Effects:
    return _host_deals(table, command, LOBBY, N_("The match has already started."))


def _host_deals(table: Table, command: Command, state: Phase, wrong_state: str) -> Effects:
    """The host deals a hand (the first from the lobby, the next between hands) once all
    four seats are taken."""
    if (refused := table.host_only(command)) is not None:
        return refused
    if table.state != state:
        return table.reply(command, wrong_state)
    if any(seat is None for seat in table.seats):
        return table.reply(command, "All four seats must be taken (use /addbot).")
    return dealing.deal(table)


def ready(table: Table, command: Command) -> Effects:
    """Ready for the next hand; at a table that paused for want of people (`Table.on_hold`)
    it is Continue: the next hand is dealt at once, whoever else is not back playing on
    托管."""
    index = table.seat_of(command.user)
    if index is None or table.state != BETWEEN:
        return table.reply(command, "Nothing to get ready for now.")
    seat = table.seats[index]
    assert seat is not None
    table.mark_ready(index)
    if table.on_hold:
        effects = Effects(out=[table.group("{name} is back: the match goes on.", name=seat.name)])
        effects.extend(_deal_without_the_away(table))
        return effects
    if all(s is not None and s.ready for s in table.seats):
        return dealing.deal(table)
    return Effects(out=[table.group("{name} is ready.", name=seat.name)], table_changed=True)


def next_hand(table: Table, command: Command) -> Effects:
    return _host_deals(table, command, BETWEEN, N_("Nothing to get ready for now."))


def stop(table: Table, command: Command) -> Effects:
    if command.user != table.host and not command.admin:
        if table.seat_of(command.user) is None:
            return table.reply(command, ONLY_HOST)
        votes = table.vote_stop(command.user)
        if votes < 3:
            return Effects(out=[table.group("{count} of 3 votes to stop the match.", count=votes)])
    return close(table)


def close(table: Table) -> Effects:
    return dealing.close_match(table)


def close_idle(table: Table) -> Effects:
    """Nobody has been at the table for ``idle_minutes``: AI players alone do not play on."""
    return _close_after_idle_minutes(
        table, N_("Nobody has been at the table for {minutes} minutes: the match ends here.")
    )


def _close_after_idle_minutes(table: Table, why: str) -> Effects:
    """The match ends with its score after ``idle_minutes`` without people, said with ``why``
    (which names the minutes)."""
    minutes = table.table_options.idle_minutes
    effects = Effects(out=table.sent.retire_buttons())  # first: the two posts of the end go as one
    effects.out.append(table.group(why, minutes=minutes))
    effects.extend(dealing.close_match(table))
    return effects


def score(table: Table, command: Command) -> Effects:
    """The match's ledger: in the group, or to the asker alone when asked privately."""
    if command.private:
        text = ledger_text(table.answer_lang(command), table.ledger, table.names)
        return Effects(out=[Outgoing(Kind.REPLY, table.chat, text, user=command.user)])
    ledger, names = table.ledger, table.names

    def said(lang: str) -> str:  # each reader's language (a quick table's players)
        return ledger_text(lang, ledger, names)

    return Effects(out=[Outgoing(Kind.GROUP, table.chat, said(table.lang), said=said)])


def ready_timeout(table: Table) -> Effects:
    """The ready time is over. A person who is not ready is away — never removed, never
    replaced by an AI player: while at least one other person is ready, the next hand is
    dealt with them on 托管 (they come back with the Auto-play off button or /auto off);
    when no person is ready the table pauses (`dealing.hold`). AI players alone play on
    only at a table opened without people (`Table.unattended`); a seat left empty sends the
    table back to the lobby."""
    effects = Effects(table_changed=True)
    for index in table.people():
        seat = table.seats[index]
        if seat is not None and seat.left:  # left during the hand: their seat is free now
            table.sit(index, None)
            effects.out.append(table.group("{name} left the table.", name=seat.name))
    if any(seat is None for seat in table.seats):
        table.back_to_lobby()
        return effects
    people = table.people()
    if not people and table.unattended:
        effects.extend(dealing.deal(table))
    elif not any(seat.ready for index in people if (seat := table.seats[index]) is not None):
        effects.extend(
            dealing.hold(table, N_("Nobody was ready for the next hand, so the table has paused."))
        )
    else:
        effects.extend(_deal_without_the_away(table))
    return effects


def _deal_without_the_away(table: Table) -> Effects:
    """Deal the next hand; the people not ready are away: the table plays for them (托管)
    until they come back, and the group is told who."""
    away = []
    for index in table.people():
        seat = table.seats[index]
        assert seat is not None and seat.user is not None
        if not seat.ready:
            table.mark_away(seat.user)
            away.append(seat.name)
    effects = Effects(table_changed=True)
    if away:

        def said(lang: str) -> str:  # the list's comma is the reader's (、 in Chinese)
            names = t(lang, ", ").join(away)
            return t(lang, "Not ready, so on auto-play this hand: {names}.", names=names)

        effects.out.append(Outgoing(Kind.GROUP, table.chat, said(table.lang), said=said))
    effects.extend(dealing.deal(table))
    return effects


def close_held(table: Table) -> Effects:
    """The paused table waited ``idle_minutes`` and nobody came back: the match ends with
    its score."""
    return _close_after_idle_minutes(
        table, N_("Nobody came back for {minutes} minutes: the match ends here.")
    )
