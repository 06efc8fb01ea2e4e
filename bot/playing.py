"""The running hand: game commands, the deal, applying actions, the end of a hand, and
acting for seats whose time is up (what people see of it: `bot.hand_views`).

What is legal comes from the engine (`legal_actions`, `check`); what it looks like from the
game's front (`bot.games`).
"""

from __future__ import annotations

import functools
import logging
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from bot import metrics
from bot.ai_workers import FLOOR, Job
from bot.commands import Command
from bot.echo import echoed
from bot.effects import Effects, LedgerLine
from bot.games import BadInput
from bot.hand_views import (
    call_to_act,
    fresh_hand,
    private_hands,
    settlement_drawing,
    table_message,
    turn_notice,
)
from bot.i18n import N_, t, tn
from bot.outgoing import Button, Kind, Outgoing
from bot.rated_hands import rated_seats
from bot.settings import read_bool
from bot.shared_texts import ledger_text
from bot.table import PLAYING, Table
from bot.thinking import SLOW_LEVELS, Decision
from engine.actions import Action, Auto, Timeout
from engine.ai import Player, player
from engine.errors import IllegalAction
from engine.events import AutoChanged, HandEnded, TimedOut
from engine.game import Result

log = logging.getLogger(__name__)
REMINDER_FLOOR = 5
"""A reminder with fewer seconds left than this would arrive after the time-out."""
_PLAYERS: dict[tuple[str, str, float], Player] = {}
"""One AI player per game, level and share of the budget: they keep no state between
decisions."""
HARD_SEARCH: dict[str, Any] = {}
"""Search options of the ``hard`` players (`engine.ai.player`); none: each searches its
game's sampled deals (``work_playouts``), with no time limit — CPU work, not wall time, so
it plays as strong under load. The tests fix fewer playouts here (tests/conftest.py)."""


def ai_player(game: str, level: str, share: float = 1.0) -> Player:
    """The AI player of ``game`` at ``level``; a search level gets ``share`` of its budget
    (`bot.ai_workers` lowers it when the workers cannot keep up)."""
    found = _PLAYERS.get((game, level, share))
    if found is None:
        search = _search_options(game, level, share) if level in SLOW_LEVELS else {}
        found = _PLAYERS[(game, level, share)] = player(game, level, **search)
    return found


def _search_options(game: str, level: str, share: float) -> dict[str, Any]:
    search = dict(HARD_SEARCH)
    if "playouts" not in search:  # the budget is CPU work: no time limit
        search.setdefault("budget", math.inf)
        search["playouts"] = getattr(player(game, level), "work_playouts", 1)
    search["playouts"] = max(1, round(search["playouts"] * share))
    return search


def decide_job(job: Job) -> tuple[Action, float]:
    """An AI worker's decision (`bot.ai_workers`), and the seconds it took. Past the job's
    deadline the search stops where it is (and one asked after it plays ``normal``)."""
    started = time.perf_counter()
    deadline = job.deadline
    if deadline is not None and time.monotonic() >= deadline:
        action = ai_player(job.game, FLOOR).decide(job.view, job.legal)
        return action, time.perf_counter() - started
    deciding = ai_player(job.game, job.level, job.share)
    own_clock = getattr(deciding, "clock", None)
    if deadline is not None and own_clock is not None:
        # The search's clock stands still until the deadline, then reads infinity: the
        # playouts end it as ever, the deadline at the latest (its budget is infinite).
        deciding.clock = lambda: 0.0 if time.monotonic() < deadline else math.inf  # type: ignore[attr-defined]
    try:
        action = deciding.decide(job.view, job.legal)
    finally:
        if deadline is not None and own_clock is not None:
            deciding.clock = own_clock  # type: ignore[attr-defined]
    return action, time.perf_counter() - started


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
        raise BadInput("{game} has no /{name}: its commands are {commands}.", game=game,
                       name=echoed(command.name), commands=commands)  # fmt: skip
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


def deal(table: Table) -> Effects:
    retired = table.retire_buttons()  # the lobby's, the last hand's Ready
    hand = table.deal()
    effects = Effects(hand_started=hand.start_record(), table_changed=True)
    dealt = table.group("Hand {number} is dealt.", number=table.hand_number)
    if table.hand_number == 1:  # the match's first hand says who the AI players are
        dealt = replace(dealt, text=dealt.text + ai_levels_line(table))
    opening = table.front.opening_text(table.lang, hand.view(None), table.seat_names())
    if opening:
        dealt = replace(dealt, text=dealt.text + "\n" + opening)
    effects.out.append(dealt)
    # After the deal's line: a post that ends in an edit is never joined with the plain posts
    # around it, and the deal's line must stay joined with those before it, above the table.
    effects.out += retired
    effects.out += private_hands(table)
    effects.out.append(table_message(table))
    effects.out += turn_notice(table)
    return effects


def ai_levels_line(table: Table) -> str:
    """A line ``AI players: AI 1 hard · AI 2 normal.`` (empty for a table of people)."""
    names = table.seat_names()
    levels = [
        f"{names[index]} {table.say(seat.level)}"
        for index, seat in enumerate(table.seats)
        if seat is not None and seat.ai
    ]
    return "\n" + table.say("AI players: {levels}.", levels=" · ".join(levels)) if levels else ""


def slow_decision(table: Table) -> Decision | None:
    """The decision a due tick would ask of a slow AI seat (`bot.thinking`), else None."""
    seat, hand = table.turn_seat, table.hand
    if table.state != PLAYING or hand is None or seat is None or table.safe_mode:
        return None
    occupant = table.seats[seat]
    if occupant is None or not occupant.ai or occupant.level not in SLOW_LEVELS:
        return None
    legal = tuple(hand.legal_actions(seat))  # listed now: the hand may change meanwhile
    return Decision(table.chat, table.hand_number, table.turn_count, seat, table.game,
                    occupant.level, hand.view(seat), legal)  # fmt: skip


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
    try:
        events = hand.apply(action)
    except IllegalAction as refusal:
        if command is None:
            raise
        metrics.refused(table.chat, table.game)
        text = refusal_text(table, refusal, table.answer_lang(command), action.seat)
        return Effects(out=[Outgoing(Kind.REPLY, table.chat, text, user=command.user)])
    effects = Effects(actions=[action.to_json()])
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
            one, many = "{name} has timed out {count} time.", "{name} has timed out {count} times."
            table.closings.note(tn(table.lang, one, many, event.count, name=names[event.seat]))
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
                effects.out.append(Outgoing(Kind.GROUP, table.chat, post))
    table.turn_taken(action.seat, by_player)
    effects.out += private_hands(table)
    closed = any(front.closes_a_trick(e) for e in events)
    waiting = table.waits_for_a_person()
    effects.out.append(table_message(table, closed or waiting or timed_out, names, waiting))
    effects.out += turn_notice(table, waiting)
    return effects


def end_hand(table: Table, result: Result) -> Effects:
    names = table.seat_names()
    totals = table.staked(result.total)
    ledger_lines: list[LedgerLine] = []
    for index in range(4):
        key = table.ledger_key(index)
        table.settle(key, names[index], totals[index])
        bonus = str(result.bonus[index])
        ledger_lines.append((key, names[index], str(totals[index]), result.first_out == index,
                             bonus))  # fmt: skip
    running = table.match_totals()
    effects = Effects(table_changed=True)
    effects.out += private_hands(table)  # the final view: its buttons are gone
    limit = int(table.table_options["max_hands"])
    # A 四团 series carried over is one game still being played: the match's last hand
    # cannot leave it undecided (it pays once, when decided), so the match plays it out.
    assert table.hand is not None
    undecided = table.hand.match_goes_on
    last_due = bool(limit and table.hand_number >= limit and not result.void)
    match_over = last_due and not undecided
    redeal_now = result.void and bid_by_someone(table.hand.history)
    nobody_played = not table.people_acted and not table.unattended and not match_over
    if redeal_now and not nobody_played:
        effects.out.append(table.group("Everyone passed: the cards are dealt again."))
    elif result.void and nobody_played:
        effects.out.append(table.group("Everyone passed."))
    elif result.void:  # nobody there to bid: dealing again at once would deal on forever
        ready = Button(table.say("Ready"), "/ready", table.stamp().text())
        text = table.say("Everyone passed, and nobody at the table bid for themselves: the "
                         "cards are dealt again when the players are ready.")  # fmt: skip
        post = Outgoing(Kind.GROUP, table.chat, text, buttons=((ready,),))
        effects.out.append(table.with_buttons_of_the_phase(post, "redeal"))
    else:
        ready = Button(table.say("Ready"), "/ready", table.stamp().text())
        text = table.front.settlement_text(table.lang, result, names, totals, running)
        if last_due and undecided:
            text += "\n" + table.say("That was the match's last hand, but the series is "
                                      "not decided: the match goes on until it is.")  # fmt: skip
        picture = settlement_drawing(table, result, names, totals, running)
        # No next hand to be ready for: the match is over, or it waits for someone to come back.
        buttons = () if match_over or nobody_played else ((ready,),)
        effects.settlement = Outgoing(Kind.GROUP, table.chat, text, buttons=buttons,
                                      picture=drawn_once(picture))  # fmt: skip
        if buttons:
            effects.settlement = table.with_buttons_of_the_phase(effects.settlement, "settled")
        effects.out.append(effects.settlement)
    effects.hand_finished = (result.to_json(), ledger_lines)
    effects.rated_seats = rated_seats(table)
    if match_over:
        effects.extend(close_match(table))
        return effects
    assert table.hand is not None
    table.between_hands(sitting.user for seat, on in enumerate(table.hand.auto)
                        if on and (sitting := table.seats[seat]) is not None
                        and sitting.user is not None)  # fmt: skip
    if nobody_played:
        effects.extend(hold(table, N_("Nobody at the table played this hand, so the table has "
                                      "paused.")))  # fmt: skip
    elif redeal_now or (table.unattended and all(s is not None and s.ai for s in table.seats)):
        effects.extend(deal(table))
    return effects


def hold(table: Table, why: str) -> Effects:
    """Nobody is here to play: no hand is dealt. The group is told once, with ``why`` and
    how to go on (a Continue button); each person at the table is told privately; the match
    ends after ``idle_minutes`` unless someone comes back (`bot.lobby.ready`)."""
    table.hold()
    minutes = table.table_options["idle_minutes"]
    go_on = Button(table.say("Continue"), "/ready", table.stamp().text())
    said = table.say(why)
    text = said + ("" if said.endswith("。") else " ") + table.say(  # no space after a 。
        "Press Continue (or say /ready) to deal the next hand; otherwise the match ends in "
        "{minutes} minutes.", minutes=minutes)  # fmt: skip
    effects = Effects(out=table.retire_buttons(), table_changed=True)  # a settlement's Ready
    post = Outgoing(Kind.GROUP, table.chat, text, buttons=((go_on,),))
    effects.out.append(table.with_buttons_of_the_phase(post, "paused"))
    for index in table.people():
        seat = table.seats[index]
        assert seat is not None and seat.user is not None
        if seat.left:
            continue  # they said goodbye: nothing to come back to
        lang = table.lang_of(seat.user)
        told = t(lang, "The table at {table} has paused: nobody played. Press Continue there (or "
                 "say /ready in the group) to play on; otherwise the match ends in {minutes} "
                 "minutes.", table=table.label(lang), minutes=minutes)  # fmt: skip
        effects.out.append(Outgoing(Kind.PRIVATE, table.chat, told, user=seat.user))
    return effects


def drawn_once(draw: Callable[[], bytes] | None) -> Callable[[], bytes] | None:
    """A picture drawn at most once: the post that takes its buttons off later shows the
    same picture (the platform compares it, and uploads nothing new)."""
    if draw is None:
        return None
    return functools.cache(draw)


def bid_by_someone(history: Sequence[Action]) -> bool:
    """Whether a player — a person, or an AI player by its own judgment — made a call of the
    hand. Where every call was the table's (托管, time-outs, players gone, safe mode), the 托管
    rule passes for all of them, so an immediate redeal would pass and deal again for ever
    with nobody acting: the table waits for the players to be ready instead, as after any
    hand, and the ready timer seats AI players for those who are not there."""
    return any(not isinstance(action, Timeout | Auto) for action in history)


def close_match(table: Table) -> Effects:
    """The match is over: the group gets its final score."""
    retired = table.retire_buttons()  # nothing is left to be ready for, or to continue
    if table.state == PLAYING and table.hand is not None and not table.hand.over:
        # Stopped in the middle of a hand: its table message keeps no button either.
        retired.append(replace(table_message(table), buttons=()))
    table.close()
    text = table.say("The match is over.") + "\n" + ledger_text(table.lang, table.ledger,
                                                                  table.names)  # fmt: skip
    return Effects(out=[*retired, Outgoing(Kind.GROUP, table.chat, text)], table_changed=True)


def put_on_auto_notice(table: Table, seat: int) -> list[Outgoing]:
    """A person the table put on 托管 after their time-outs is told so privately, with how
    to come back."""
    occupant = table.seats[seat]
    if occupant is None or occupant.user is None or occupant.left:
        return []
    lang = table.lang_of(occupant.user)
    text = t(lang, "You timed out and are on auto-play (托管) now: the table plays for you. "
                   "Press “Auto-play off” or say /auto off to play again.")  # fmt: skip
    return [Outgoing(Kind.PRIVATE, table.chat, text, user=occupant.user)]


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
    out = [call_to_act(table, seat, N_("Still your turn at {table}: {seconds} s left. {prompt}"),
                       N_("Still your turn: {seconds} s left. {prompt}"), left)]  # fmt: skip
    if table.table_options.get("mention_turn"):
        # The call heads the live table, which is sent anew below it with the time left
        # written then: one group call, not an edit and then a move.
        said = table.say("{name}: your turn, {seconds} s left.", name=occupant.name, seconds=left)
        out.append(Outgoing(Kind.GROUP, table.chat, said, mention=occupant.user))
    else:
        out.append(table_message(table, urgent=True))  # the time left, in the group
    return Effects(out=out)
