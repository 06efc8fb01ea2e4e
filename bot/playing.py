"""The running hand: game commands, the deal, applying actions, the end of a hand, acting
for seats whose time is up, and the messages that show it (the table message and each
seat's private hand).

What is legal comes from the engine (`legal_actions`, `check`); what it looks like from the
game's front (`bot.games`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from bot.commands import Command
from bot.controls import Selection, auto_toggle
from bot.effects import Effects, LedgerLine
from bot.games import BadInput, Stamps
from bot.games.pictured import drawn_hand, drawn_settlement
from bot.i18n import N_, t, tn
from bot.outgoing import Button, Outgoing
from bot.pictures import PictureError
from bot.settings import read_bool
from bot.thinking import SLOW_LEVELS, Decision
from engine.actions import Action, Auto, Timeout
from engine.ai import Player, player
from engine.errors import IllegalAction
from engine.events import AutoChanged, HandEnded, TimedOut
from engine.game import Result

if TYPE_CHECKING:
    from bot.table import Table

log = logging.getLogger(__name__)
PLAYING, BETWEEN = "playing", "between"
GAME_COMMANDS = ("play", "pass", "bid", "trump", "bury", "surrender", "bonus", "show", "reveal")
"""Commands a game's front reads into actions (each game knows some of them)."""
_PLAYERS: dict[tuple[str, str], Player] = {}
"""One AI player per game and level: they keep no state between decisions."""


def ai_player(game: str, level: str) -> Player:
    found = _PLAYERS.get((game, level))
    if found is None:
        found = _PLAYERS[(game, level)] = player(game, level)
    return found


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
        raise BadInput("That command is not used in this game.")
    action = table.front.command_action(table.hand, index, command.name, command.args)
    if table.front.needs_confirming(action) and not _confirmed(table, index, command):
        return table.reply(command, "Press it again (or add yes: /{name} yes) to confirm.",
                           name=command.name)  # fmt: skip
    return apply_action(table, action, command)


CONFIRMING_WORDS = frozenset({"yes", "y", "是", "确认", "確認"})


def _confirmed(table: Table, seat: int, command: Command) -> bool:
    """A second press of the same turn, or the command with ``yes``, confirms it."""
    if command.args and command.args[0].lower() in CONFIRMING_WORDS:
        return True
    key = (table.hand_number, table.turn_count, seat, command.name)
    if table.confirming == key:
        return True
    table.confirming = key
    return False


def auto(table: Table, command: Command) -> Effects:
    index = playing_seat(table, command)
    on = read_bool(command.args[0]) if command.args else True
    return apply_action(table, Auto(index, on), command)


def pick(table: Table, command: Command) -> Effects:
    index = playing_seat(table, command)
    assert table.hand is not None
    selection = table.selections.setdefault(index, Selection())
    table.front.pick(table.hand, index, selection, command.args)
    return Effects(out=fresh_hand(table, index))


def clear(table: Table, command: Command) -> Effects:
    index = playing_seat(table, command)
    table.selections.pop(index, None)
    return Effects(out=fresh_hand(table, index))


def go(table: Table, command: Command) -> Effects:
    """Play (or, while burying, bury) the cards chosen by button."""
    index = playing_seat(table, command)
    assert table.hand is not None
    selection = table.selections.get(index)
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
    table.paused = False
    start_turn(table)
    return Effects(out=[table.group("The hand goes on."), table_message(table)])


def hand(table: Table, command: Command) -> Effects:
    index = table.seat_of(command.user)
    if index is None or table.hand is None:
        return table.reply(command, "You have no cards in play.")
    return Effects(out=fresh_hand(table, index))


COMMANDS: dict[str, Callable[[Table, Command], Effects]] = {
    **dict.fromkeys(GAME_COMMANDS, game_command),
    "auto": auto,
    "pick": pick,
    "clear": clear,
    "go": go,
    "hand": hand,
    "resume": resume,
}


# ----------------------------------------------------------------- the hand


def deal(table: Table) -> Effects:
    table.hand_number += 1
    game = table.front.game
    table.hand = game.deal(table.rules, seed=table.seeds(table.hand_number), carry=table.carry)
    table.state = PLAYING
    table.stop_votes.clear()
    for seat in table.seats:
        assert seat is not None
        seat.ready = seat.ai
        seat.left = False
    effects = Effects(hand_started=table.hand.start_record(), table_changed=True)
    dealt = table.group("Hand {number} is dealt.", number=table.hand_number)
    if table.hand_number == 1:  # the match's first hand says who the AI players are
        dealt = replace(dealt, text=dealt.text + ai_levels_line(table))
    effects.out.append(dealt)
    table.turn_count = 0
    table.selections.clear()
    table.shown.clear()
    start_turn(table)
    effects.out += private_hands(table)
    effects.out.append(table_message(table))
    effects.out += turn_notice(table)
    return effects


def start_turn(table: Table) -> None:
    assert table.hand is not None
    seat = table.hand.to_act
    table.turn_seat = seat
    now = table.clock()
    if seat is None:
        table.deadline = None
    elif acts_by_itself(table, seat):
        table.deadline = now + float(table.table_options["ai_delay"])
    else:
        table.deadline = now + float(table.hand.time_limit)


def ai_levels_line(table: Table) -> str:
    """`` AI players: AI 1 hard · AI 2 normal.`` (empty for a table of people)."""
    names = table.seat_names()
    levels = [
        f"{names[index]} {table.say(seat.level)}"
        for index, seat in enumerate(table.seats)
        if seat is not None and seat.ai
    ]
    return " " + table.say("AI players: {levels}.", levels=" · ".join(levels)) if levels else ""


def acts_by_itself(table: Table, seat: int) -> bool:
    """AI seats, seats on 托管 and players who left are played by the table."""
    occupant = table.seats[seat]
    assert table.hand is not None
    return occupant is None or occupant.ai or occupant.left or bool(table.hand.auto[seat])


def slow_decision(table: Table) -> Decision | None:
    """The decision a due tick would ask of a slow AI seat (`bot.thinking`), else None."""
    seat, hand = table.turn_seat, table.hand
    if table.state != PLAYING or hand is None or seat is None or table.safe_mode:
        return None
    occupant = table.seats[seat]
    if occupant is None or not occupant.ai or occupant.level not in SLOW_LEVELS:
        return None
    player = ai_player(table.game, occupant.level)
    legal = tuple(hand.legal_actions(seat))  # listed now: the hand may change meanwhile
    return Decision(table.chat, table.hand_number, table.turn_count, seat, player,
                    hand.view(seat), legal)  # fmt: skip


def act_for_seat(table: Table, seat: int) -> Effects:
    """An AI seat decides from its view and what it may do; any other seat whose time is up
    (or that is on 托管) is played by the table: a `Timeout`, resolved by the engine."""
    assert table.hand is not None
    occupant = table.seats[seat]
    if occupant is not None and occupant.ai and not table.safe_mode:
        legal = table.hand.legal_actions(seat)
        action = ai_player(table.game, occupant.level).decide(table.hand.view(seat), legal)
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
    try:
        events = hand.apply(action)
    except IllegalAction as refusal:
        if command is None:
            raise
        lang = table.answer_lang(command)
        turn = refusal.facts.get("turn")
        if refusal.code == "not_your_turn" and isinstance(turn, int) and 0 <= turn < 4:
            text = t(lang, "It is {name}'s turn, not yours.", name=table.seat_names(lang)[turn])
        else:
            text = table.front.explain(lang, refusal)
        return Effects(out=[Outgoing("reply", table.chat, text, user=command.user)])
    effects = Effects(actions=[action.to_json()])
    effects.extend(after_action(table, action, events))
    return effects


def _refused_plainly(table: Table, command: Command | None, key: str) -> Effects:
    if command is None:
        return Effects()
    return table.reply(command, key)


def after_action(table: Table, action: Action, events: list[Any]) -> Effects:
    assert table.hand is not None
    effects = Effects()
    names = table.seat_names()
    front = table.front
    for event in events:
        if isinstance(event, TimedOut):
            one, many = "{name} has timed out {count} time.", "{name} has timed out {count} times."
            text = tn(table.lang, one, many, event.count, name=names[event.seat])
            effects.out.append(Outgoing("group", table.chat, text))
        elif isinstance(event, HandEnded):
            effects.extend(end_hand(table, event.result))
            return effects
        elif not isinstance(event, AutoChanged):
            post = front.narrate(table.lang, event, names)
            if post is not None:
                effects.out.append(Outgoing("group", table.chat, post))
    table.selections.pop(action.seat, None)
    table.acted_at[action.seat] = table.clock()
    before = table.turn_seat
    start_turn(table)
    if action.seat == before or table.turn_seat != before:
        table.turn_count += 1  # the turn moved on: its buttons go stale
    effects.out += private_hands(table)
    closed = any(front.closes_a_trick(e) for e in events)
    effects.out.append(table_message(table, urgent=closed or waits_for_a_person(table)))
    effects.out += turn_notice(table)
    return effects


def waits_for_a_person(table: Table) -> bool:
    seat = table.turn_seat
    return seat is not None and not acts_by_itself(table, seat)


NOTICE_QUIET_SECONDS = 5.0
"""A player who acted this recently needs no new message to know it is their turn again."""


def turn_notice(table: Table) -> list[Outgoing]:
    """When the turn comes to a person: a *new* private message (edits notify nobody) with
    the time left and what to do — once per turn, and not right after their own action —
    or, where the table prefers it, their name in the group."""
    seat = table.turn_seat
    hand = table.hand
    if hand is None or hand.over or seat is None or not waits_for_a_person(table):
        return []
    key = (table.hand_number, table.turn_count, seat)
    if table.notified == key:
        return []
    table.notified = key
    occupant = table.seats[seat]
    assert occupant is not None and occupant.user is not None
    if table.table_options.get("mention_turn"):
        return [table.group("{name}: your turn.", name=occupant.name)]
    if table.clock() - table.acted_at.get(seat, -1e9) < NOTICE_QUIET_SECONDS:
        return []
    lang = table.lang_of(occupant.user)
    prompt = table.front.prompt(lang, hand.view(seat), hand.legal_actions(seat))
    line = (
        N_("Your turn at {table} ({game}, {seconds} s): {prompt}")
        if table.title
        else N_("Your turn ({game}, {seconds} s): {prompt}")
    )  # a player seated in two groups knows which one calls
    text = t(lang, line, table=table.title, game=t(lang, table.game), seconds=hand.time_limit,
             prompt=prompt)  # fmt: skip
    return [Outgoing("private", table.chat, text, user=occupant.user)]


def end_hand(table: Table, result: Result) -> Effects:
    names = table.seat_names()
    stake = Fraction(table.table_options["stake"])
    totals = [x * stake for x in result.total]
    ledger_lines: list[LedgerLine] = []
    for index, seat in enumerate(table.seats):
        assert seat is not None
        key = seat.user or f"ai:{index}"
        table.names[key] = names[index]
        table.ledger[key] = table.ledger.get(key, Fraction(0)) + totals[index]
        bonus = str(result.bonus[index])
        ledger_lines.append((key, names[index], str(totals[index]), result.first_out == index,
                             bonus))  # fmt: skip
    running = [table.ledger[s.user or f"ai:{i}"] for i, s in enumerate(table.seats) if s]
    effects = Effects(table_changed=True)
    effects.out += private_hands(table)  # the final view: its buttons are gone
    if result.void:
        effects.out.append(table.group("Everyone passed: the cards are dealt again."))
    else:
        ready = Button(table.say("Ready"), "/ready", table.stamp().text())
        text = table.front.settlement_text(table.lang, result, names, totals, running)
        picture = settlement_drawing(table, result, names, totals, running)
        effects.out.append(Outgoing("group", table.chat, text, buttons=((ready,),),
                                    picture=picture))  # fmt: skip
    effects.hand_finished = (result.to_json(), ledger_lines)
    limit = int(table.table_options["max_hands"])
    from bot.lobby import close

    if limit and table.hand_number >= limit and not result.void:
        effects.extend(close(table))
        return effects
    assert table.hand is not None
    table.carry = table.hand.next_carry()
    table.state = BETWEEN
    table.deadline = table.clock() + float(table.table_options["ready_seconds"])
    if result.void or all(s is not None and s.ai for s in table.seats):
        effects.extend(deal(table))
    return effects


# ----------------------------------------------------------------- messages


def table_message(table: Table, urgent: bool = True) -> Outgoing:
    """The table message of the running hand, from a snapshot of the public view taken now;
    its text is written when it is sent (`Outgoing.render`), so superseded states are never
    rendered and the one sent shows the latest time left."""
    assert table.hand is not None
    view = table.hand.view(None)
    names = tuple(table.seat_names())
    number, lang, front, clock = table.hand_number, table.lang, table.front, table.clock
    # The time left is shown for a person's decision only (an AI or 托管 acts at once).
    deadline = table.deadline if waits_for_a_person(table) else None

    def write() -> str:
        left = None if deadline is None else max(0, round(deadline - clock()))
        return front.table_text(lang, view, names, number, left)

    chrome = table.table_chrome
    if chrome[0] != (table.tag, number, lang):  # made once per hand (and language)
        stamp = table.stamp().text()
        my_hand = Button(table.say("My hand"), "/hand", stamp)
        chrome = table.table_chrome = ((table.tag, number, lang), ((my_hand,),), f"table {stamp}")
    buttons, slot = chrome[1], chrome[2]
    return Outgoing("table", table.chat, "", buttons=buttons, slot=slot, urgent=urgent,
                    render=write)  # fmt: skip


def private_hands(table: Table, seats: Iterable[int] = range(4)) -> list[Outgoing]:
    """Fresh private hand views for the human seats whose view changed (AI seats get none)."""
    out = []
    for index in seats:
        seat = table.seats[index]
        if seat is None or seat.ai:
            continue
        message = private_hand(table, index)
        shown = (message.text, message.buttons)
        if table.shown.get(index) != shown:
            table.shown[index] = shown
            out.append(message)
    return out


def fresh_hand(table: Table, index: int) -> list[Outgoing]:
    """The seat's private hand, sent even if unchanged (it was asked for)."""
    table.shown.pop(index, None)
    return private_hands(table, [index])


def private_hand(table: Table, index: int) -> Outgoing:
    hand = table.hand
    assert hand is not None
    seat = table.seats[index]
    assert seat is not None and seat.user is not None
    lang = table.lang_of(seat.user)
    view = hand.view(index)
    front = table.front
    cards, notes = front.hand_text(lang, view, table.seat_names(lang))
    key = (
        N_("Your hand at {table} ({game}, seat {seat}): {cards}")
        if table.title
        else N_("Your hand ({game}, seat {seat}): {cards}")
    )  # the hand names its group
    text = t(lang, key, table=table.title, game=t(lang, table.game), seat=index,
             cards=cards) + notes  # fmt: skip
    selection = table.selections.get(index, Selection())
    if selection.size():
        text += "\n" + front.selection_text(lang, selection)
    buttons: tuple[tuple[Button, ...], ...] = ()
    if not hand.over:
        legal = hand.legal_actions(index)
        if table.turn_seat == index:
            text += "\n" + t(lang, "Your turn.") + " " + front.prompt(lang, view, legal)
        stamps = Stamps(table.stamp(), table.stamp(turn=True))
        rows = front.hand_buttons(lang, view, legal, selection, stamps)
        toggle = auto_toggle(lang, legal, stamps.whole)
        buttons = tuple([*rows, toggle] if toggle else rows)
    slot = f"hand {table.stamp().text()}"
    picture = hand_drawing(table, lang, view, seat.name)
    return Outgoing("private", table.chat, text, user=seat.user, buttons=buttons, slot=slot,
                    picture=picture)  # fmt: skip


# ----------------------------------------------------------------- pictures


def pictures_wanted(table: Table) -> bool:
    return bool(table.table_options.get("pictures", True))


def hand_drawing(table: Table, lang: str, view: Any, player: str) -> Callable[[], bytes] | None:
    """The private hand's picture, drawn only when an adapter sends it (None: text only)."""
    if not pictures_wanted(table):
        return None
    try:
        return drawn_hand(table.front.hand_picture(lang, view, player, table.hand_number))
    except PictureError as error:  # a picture is a nicety: the text goes on alone
        log.warning("no hand picture at %s: %s", table.chat, error)
        return None


def settlement_drawing(
    table: Table, result: Result, names: list[str], totals: list[Fraction],
    running: list[Fraction],
) -> Callable[[], bytes] | None:  # fmt: skip
    if not pictures_wanted(table):
        return None
    try:
        picture = table.front.settlement_picture(table.lang, result, names, totals, running,
                                                 table.hand_number)  # fmt: skip
    except PictureError as error:
        log.warning("no settlement picture at %s: %s", table.chat, error)
        return None
    return drawn_settlement(picture)
