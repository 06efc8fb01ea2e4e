"""A hand's start and end: the deal, the end of a hand with its settlement and the next step (deal
again, pause when nobody played, close at the match's end), a pause, and the match's close."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import replace

from bot.i18n import N_, t
from bot.table.effects import Effects, LedgerLine
from bot.table.hand_views import (
    private_hands,
    settlement_drawing,
    table_message,
    turn_notice,
)
from bot.table.rated_hands import rated_seats
from bot.table.state import PLAYING, Table, ai_name
from bot.views.outgoing import Button, Kind, Outgoing
from bot.views.shared_texts import ledger_text
from engine.actions import Action, Auto, Timeout
from engine.game import Result


def deal(table: Table) -> Effects:
    retired = table.sent.retire_buttons()  # the lobby's, the last hand's Ready
    hand = table.deal()
    effects = Effects(hand_started=hand.start_record(), table_changed=True)
    number, view = table.hand_number, hand.view(None)

    def said(lang: str) -> str:
        text = t(lang, "Hand {number} is dealt.", number=number)
        if number == 1:  # the match's first hand says who the AI players are
            text += ai_levels_line(table, lang)
        opening = table.front.opening_text(lang, view, table.seat_names(lang))
        return f"{text}\n{opening}" if opening else text

    effects.out.append(Outgoing(Kind.GROUP, table.chat, said(table.lang), said=said))
    # After the deal's line: a post that ends in an edit is never joined with the plain posts
    # around it, and the deal's line must stay joined with those before it, above the table.
    effects.out += retired
    effects.out += private_hands(table)
    effects.out.append(table_message(table))
    effects.out += turn_notice(table)
    return effects


def ai_levels_line(table: Table, lang: str | None = None) -> str:
    """A line ``AI players: AI 1 hard · AI 2 normal.`` (empty for a table of people)."""
    lang = lang or table.lang
    names = table.seat_names(lang)
    levels = [
        f"{names[index]} {t(lang, seat.level)}"
        for index, seat in enumerate(table.seats)
        if seat is not None and seat.ai
    ]
    return "\n" + t(lang, "AI players: {levels}.", levels=" · ".join(levels)) if levels else ""


def end_hand(table: Table, result: Result) -> Effects:
    names = table.seat_names()
    totals = table.staked(result.total)
    ledger_lines: list[LedgerLine] = []
    for index in range(4):
        key = table.ledger_key(index)
        table.settle(key, names[index], totals[index])
        bonus = str(result.bonus[index])
        ledger_lines.append(
            (key, names[index], str(totals[index]), result.first_out == index, bonus)
        )
    running = table.match_totals()
    effects = Effects(table_changed=True)
    effects.out += private_hands(table)  # the final view: its buttons are gone
    limit = table.table_options.max_hands
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
        post = table.group(
            "Everyone passed, and nobody at the table bid for themselves: the "
            "cards are dealt again when the players are ready."
        )
        post = replace(post, buttons=((ready,),))
        effects.out.append(table.with_buttons_of_the_phase(post, "redeal"))
    else:
        ready = Button(table.say("Ready"), "/ready", table.stamp().text())

        def settled(lang: str) -> str:
            names = table.seat_names(lang)
            text = table.front.settlement_text(lang, result, names, totals, running)
            if last_due and undecided:
                text += "\n" + t(
                    lang,
                    "That was the match's last hand, but the series is "
                    "not decided: the match goes on until it is.",
                )
            return text

        text = settled(table.lang)
        picture = settlement_drawing(table, result, names, totals, running)
        # Replay: pressed in the group, "/replay TAG.N" (this match's stamp, this hand) answers
        # the presser with the hand's page (`bot.commands.replay_commands`).
        stamp = table.stamp().text()
        replay = Button(table.say("Replay this hand"), f"/replay {stamp}", stamp)
        # Nobody played: nothing to study. The match's last settlement keeps Replay alone.
        buttons = () if nobody_played else ((replay,),) if match_over else ((ready,), (replay,))
        effects.settlement = Outgoing(
            Kind.GROUP,
            table.chat,
            text,
            buttons=buttons,
            picture=drawn_once(picture),
            said=settled,
            pictured=lambda lang: drawn_once(
                settlement_drawing(table, result, table.seat_names(lang), totals, running, lang)
            ),
        )
        if buttons and not match_over:
            effects.settlement = table.with_buttons_of_the_phase(effects.settlement, "settled")
        effects.out.append(effects.settlement)
    # A practice hand is stored (restart, replay) but leaves no line for /stats or the records.
    effects.hand_finished = (
        result.to_json(),
        [] if table.table_options.practising else ledger_lines,
    )
    effects.rated_seats = rated_seats(table)
    if match_over:
        effects.extend(close_match(table))
        return effects
    assert table.hand is not None
    table.between_hands(
        sitting.user
        for seat, on in enumerate(table.hand.auto)
        if on and (sitting := table.seats[seat]) is not None and sitting.user is not None
    )
    if nobody_played:
        effects.extend(
            hold(table, N_("Nobody at the table played this hand, so the table has paused."))
        )
    elif redeal_now or (table.unattended and all(s is not None and s.ai for s in table.seats)):
        effects.extend(deal(table))
    return effects


def hold(table: Table, why: str) -> Effects:
    """Nobody is here to play: no hand is dealt. The group is told once, with ``why`` and
    how to go on (a Continue button); each person at the table is told privately; the match
    ends after ``idle_minutes`` unless someone comes back (`bot.table.lobby.ready`)."""
    table.hold()
    minutes = table.table_options.idle_minutes
    go_on = Button(table.say("Continue"), "/ready", table.stamp().text())

    def said(lang: str) -> str:
        because = t(lang, why)
        return (
            because
            + ("" if because.endswith("。") else " ")
            + t(  # no space after a 。
                lang,
                "Press Continue (or say /ready) to deal the next hand; otherwise the match ends "
                "in {minutes} minutes.",
                minutes=minutes,
            )
        )

    effects = Effects(out=table.sent.retire_buttons(), table_changed=True)  # a settlement's Ready
    post = Outgoing(Kind.GROUP, table.chat, said(table.lang), buttons=((go_on,),), said=said)
    effects.out.append(table.with_buttons_of_the_phase(post, "paused"))
    for index in table.people():
        seat = table.seats[index]
        assert seat is not None and seat.user is not None
        if seat.left:
            continue  # they said goodbye: nothing to come back to
        lang = table.lang_of(seat.user)
        told = t(
            lang,
            "The table at {table} has paused: nobody played. Press Continue there (or "
            "say /ready in the group) to play on; otherwise the match ends in {minutes} "
            "minutes.",
            table=table.label(lang),
            minutes=minutes,
        )
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
    retired = table.sent.retire_buttons()  # nothing is left to be ready for, or to continue
    if table.state == PLAYING and table.hand is not None and not table.hand.over:
        # Stopped in the middle of a hand: its table message keeps no button either.
        retired.append(replace(table_message(table), buttons=()))
    table.close()
    ledger, names = dict(table.ledger), dict(table.names)

    def said(lang: str) -> str:  # an AI player's line named in the reader's language
        named = {k: ai_name(lang, int(k[3:])) if k[:3] == "ai:" else n for k, n in names.items()}
        return t(lang, "The match is over.") + "\n" + ledger_text(lang, ledger, named)

    post = Outgoing(Kind.GROUP, table.chat, said(table.lang), said=said)
    return Effects(out=[*retired, post], table_changed=True)


def put_on_auto_notice(table: Table, seat: int) -> list[Outgoing]:
    """A person the table put on 托管 after their time-outs is told so privately, with how
    to come back."""
    occupant = table.seats[seat]
    if occupant is None or occupant.user is None or occupant.left:
        return []
    lang = table.lang_of(occupant.user)
    text = t(
        lang,
        "You timed out and are on auto-play (托管) now: the table plays for you. "
        "Press “Auto-play off” or say /auto off to play again.",
    )
    return [Outgoing(Kind.PRIVATE, table.chat, text, user=occupant.user)]
