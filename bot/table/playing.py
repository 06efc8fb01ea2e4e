"""The running hand: game commands, the deal, applying actions, the end of a hand, and
acting for seats whose time is up (what people see of it: `bot.table.hand_views`).

What is legal comes from the engine (`legal_actions`, `check`); what it looks like from the
game's front (`bot.games`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from bot.games import BadInput
from bot.i18n import N_, t, tn
from bot.ops import metrics
from bot.reading.command import Command
from bot.reading.echo import echoed
from bot.reading.table_options import read_bool
from bot.table.ai_turns import ai_player
from bot.table.dealing import end_hand, put_on_auto_notice
from bot.table.effects import Effects
from bot.table.hand_views import (
    call_to_act,
    fresh_hand,
    private_hands,
    table_message,
    turn_notice,
)
from bot.table.refusal_lessons import lesson
from bot.table.state import PLAYING, Table
from bot.views.outgoing import Kind, Outgoing
from engine.actions import Action, Auto, Timeout
from engine.errors import IllegalAction
from engine.events import AutoChanged, HandEnded, TimedOut

log = logging.getLogger(__name__)
REMINDER_FLOOR = 5
"""A reminder with fewer seconds left than this would arrive after the time-out."""


# ----------------------------------------------------------------- commands


def playing_seat(table: Table, command: Command) -> int:
    index = table.seat_of(command.user)
    if index is None:
        raise BadInput("You have no seat at this table.")
    if table.state != PLAYING or table.hand is None:
        raise BadInput("No hand is being played.")
    return index


def game_command(table: Table, command: Command) -> Effects:
    index = playing_seat(table, command)
    assert table.hand is not None
    if command.name not in table.front.commands:
        game = t(table.answer_lang(command), table.front.title)
        commands = " ".join(f"/{c}" for c in sorted(table.front.commands))
        raise BadInput(
            "{game} has no /{name}: its commands are {commands}.",
            game=game,
            name=echoed(command.name),
            commands=commands,
        )
    action = table.front.command_action(table.hand, index, command.name, command.args)
    if table.front.needs_confirming(action) and not _confirmed(table, index, command):
        return table.reply(
            command, "Press it again (or add yes: /{name} yes) to confirm.", name=command.name
        )
    return apply_action(table, action, command)


CONFIRMING_WORDS = frozenset({"yes", "y", "是", "确认", "確認"})


def _confirmed(table: Table, seat: int, command: Command) -> bool:
    """A second press of the same turn, or the command with ``yes``, confirms it."""
    if command.args and command.args[0].lower() in CONFIRMING_WORDS:
        return True
    return table.confirm((table.hand_number, table.turn_count, seat, command.name))


def auto(table: Table, command: Command) -> Effects:
    index = playing_seat(table, command)
    on = read_bool(command.args[0]) if command.args else True
    return apply_action(table, Auto(index, on), command)


def pick(table: Table, command: Command) -> Effects:
    index = playing_seat(table, command)
    assert table.hand is not None
    table.front.pick(table.hand, index, table.pick(index), command.args)
    return Effects(out=fresh_hand(table, index))


def clear(table: Table, command: Command) -> Effects:
    index = playing_seat(table, command)
    table.clear_selection(index)
    return Effects(out=fresh_hand(table, index))


def go(table: Table, command: Command) -> Effects:
    """Play (or, while burying, bury) the cards chosen by button."""
    index = playing_seat(table, command)
    assert table.hand is not None
    selection = table.selection(index)
    if selection is None or not selection.size():
        raise BadInput("Choose cards first.")
    action = table.front.selection_action(table.hand, index, selection)
    return apply_action(table, action, command)


def resume(table: Table, command: Command) -> Effects:
    """The host lets a paused hand go on (after repeated errors)."""
    if (refused := table.host_only(command)) is not None:
        return refused
    if not table.paused or table.hand is None:
        return table.reply(command, "Nothing is paused.")
    table.unpause()
    return Effects(out=[table.group("The hand goes on."), table_message(table)])


def hand(table: Table, command: Command) -> Effects:
    index = table.seat_of(command.user)
    if index is None or table.hand is None:
        return table.reply(command, "You have no cards in play.")
    return Effects(out=fresh_hand(table, index, asked=True))


# ----------------------------------------------------------------- the hand


def carry_auto(table: Table) -> Effects:
    """The people who ended the last hand on 托管 are put on 托管 in this one too, if they
    still sit at the table: nobody waits out a time limit for a player who is not there (a
    redeal deals at once). Then the turn's timer is set as usual."""
    hand = table.hand
    assert hand is not None
    carried = table.take_carried_auto()
    effects = Effects(table_changed=True)
    for seat, occupant in enumerate(table.seats):
        if occupant is not None and occupant.user in carried and not hand.auto[seat]:
            effects.extend(apply_action(table, Auto(seat, True)))
    table.start_turn()  # the short wait for this step is over: the turn's own time
    return effects


def act_for_seat(table: Table, seat: int, level: str | None = None) -> Effects:
    """An AI seat decides from its view and what it may do (at ``level``, if given, instead
    of its own); any other seat whose time is up (or that is on 托管) is played by the table:
    a `Timeout`, resolved by the engine."""
    assert table.hand is not None
    occupant = table.seats[seat]
    if occupant is not None and occupant.ai and not table.safe_mode:
        legal = table.hand.legal_actions(seat)
        playing_as = level or occupant.level
        with metrics.deciding(table.game, playing_as):
            action = ai_player(table.game, playing_as).decide(table.hand.view(seat), legal)
    else:
        action = Timeout(seat)
    return apply_action(table, action)


def apply_action(table: Table, action: Action, command: Command | None = None) -> Effects:
    """Apply an action; a refusal of a player's command is explained to them, and an action
    that changes nothing (托管 asked for twice) is no step at all."""
    hand = table.hand
    assert hand is not None
    if isinstance(action, Auto) and action not in hand.legal_actions(action.seat):
        key = "You are on 托管 already." if action.on else "You are not on 托管."
        return _refused_plainly(table, command, key)
    hinted = command is not None and table.hints.hinted(table.hand_number, table.turn_count, action)
    try:
        events = hand.apply(action)
    except IllegalAction as refusal:
        if command is None:
            raise
        metrics.refused(table.chat, table.game)
        text = refusal_text(table, refusal, table.answer_lang(command), action.seat)
        if table.table_options.practising:
            text += "\n" + lesson(table.answer_lang(command), table.front, refusal.code)
        return Effects(out=[Outgoing(Kind.REPLY, table.chat, text, user=command.user)])
    record = action.to_json()
    if hinted:  # the hand record says which moves a hint gave (replay reads past the mark)
        record["hinted"] = True
    effects = Effects(actions=[record])
    effects.extend(after_action(table, action, events, by_player=command is not None))
    return effects


def refusal_text(table: Table, refusal: IllegalAction, lang: str, seat: int) -> str:
    """The engine's refusal of ``seat``'s action as said to its player (a hint from its own
    cards included: the answer goes to that player alone)."""
    assert table.hand is not None
    turn = refusal.facts.get("turn")
    if refusal.code == "not_your_turn" and isinstance(turn, int) and 0 <= turn < 4:
        return t(lang, "It is {name}'s turn, not yours.", name=table.seat_names(lang)[turn])
    return table.front.explain(lang, refusal, table.hand.view(seat))


def _refused_plainly(table: Table, command: Command | None, key: str) -> Effects:
    if command is None:
        return Effects()
    return table.reply(command, key)


def after_action(table: Table, action: Action, events: Sequence[Any], by_player: bool) -> Effects:
    """What the group and the players see of an applied action (``by_player``: the seat's
    player gave it, not the table for them)."""
    assert table.hand is not None
    effects = Effects()
    names = table.seat_names()
    front = table.front
    timed_out = False
    for event in events:
        if front.closes_a_trick(event):
            table.close_a_trick(event)
        if isinstance(event, TimedOut):
            # Said once, with the table state that follows (not a post: it would stay above
            # the table as its header, and over the state that still showed the turn).
            table.closings.note(_timed_out(table, event))
            timed_out = True
        elif isinstance(event, HandEnded):
            # The last trick or round, and the play that ended the hand, shown whole first.
            effects.out.append(table_message(table, urgent=True))
            effects.extend(end_hand(table, event.result))
            return effects
        elif isinstance(event, AutoChanged):
            if event.on and isinstance(action, Timeout):
                effects.out += put_on_auto_notice(table, event.seat)
        else:
            post = front.narrate(table.lang, event, names)
            if post is not None:
                effects.out.append(
                    Outgoing(Kind.GROUP, table.chat, post, said=_narrated(table, event))
                )
    table.turn_taken(action.seat, by_player)
    effects.out += private_hands(table)
    closed = any(front.closes_a_trick(e) for e in events)
    waiting = table.waits_for_a_person()
    effects.out.append(table_message(table, closed or waiting or timed_out, names, waiting))
    effects.out += turn_notice(table, waiting)
    return effects


def _timed_out(table: Table, event: TimedOut) -> Callable[[str], str]:
    """The time-out's note, for a reader of any language (a quick table's players)."""
    one, many = "{name} has timed out {count} time.", "{name} has timed out {count} times."
    return lambda lang: tn(lang, one, many, event.count, name=table.seat_names(lang)[event.seat])


def _narrated(table: Table, event: Any) -> Callable[[str], str]:
    """An event's post for a reader of another language (a quick table's players)."""
    return lambda lang: table.front.narrate(lang, event, table.seat_names(lang)) or ""


def remind(table: Table) -> Effects:
    """A quarter of a person's time is left: a new private message says so (an edit would
    notify nobody), the group's table shows the time left, and, where the table mentions
    players (``mention_turn``), the group names them with a mention that notifies them."""
    table.reminded()
    seat, hand = table.turn_seat, table.hand
    if table.state != PLAYING or hand is None or hand.over:
        return Effects()  # a turn's reminder outlived its hand: nobody is to play
    if seat is None or not table.waits_for_a_person():
        return Effects()
    occupant = table.seats[seat]
    assert occupant is not None and occupant.user is not None
    left = table.seconds_left() or 0
    if left < REMINDER_FLOOR:
        return Effects()  # too late to help: the time-out comes first
    out = [
        call_to_act(
            table,
            seat,
            N_("Still your turn at {table}: {seconds} s left. {prompt}"),
            N_("Still your turn: {seconds} s left. {prompt}"),
            left,
        )
    ]
    if table.table_options.mention_turn:
        # The call heads the live table, which is sent anew below it with the time left
        # written then: one group call, not an edit and then a move.
        call = table.group("{name}: your turn, {seconds} s left.", name=occupant.name, seconds=left)
        out.append(replace(call, mention=occupant.user))
    else:
        out.append(table_message(table, urgent=True))  # the time left, in the group
    return Effects(out=out)
