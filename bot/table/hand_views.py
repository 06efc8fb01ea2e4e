"""What each person sees of the running hand: the table message in the group, every seat's
private hand with its buttons, the new private message when the turn comes to a person, and
the pictures that go with the hand and the settlement.

`bot.table.playing` runs the hand and asks for these after each step.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import replace
from fractions import Fraction
from typing import Any

from bot.community.quick_seating import is_quick
from bot.games import Stamps
from bot.games.pictured import drawn_hand, drawn_settlement
from bot.i18n import N_, t
from bot.pictures import PictureError
from bot.table.closings import Note
from bot.table.state import Table
from bot.views.controls import Selection, Stamp, auto_toggle
from bot.views.outgoing import Button, Kind, Outgoing
from bot.views.shared_texts import money, seat_number
from engine.game import Result

log = logging.getLogger(__name__)


HAND_SLOT = "hand "
"""How a private hand's slot begins (``hand <stamp>``)."""
NOTICE_QUIET_SECONDS = 5.0
"""A player who acted this recently needs no new message to know it is their turn again."""


def turn_notice(table: Table, waiting: bool | None = None) -> list[Outgoing]:
    """When the turn comes to a person: a *new* private message (edits notify nobody) with
    the time left and what to do — once per turn, and not right after their own action
    (a move the table made for them is not theirs: `Table.turn_taken`). ``waiting``: what
    `Table.waits_for_a_person` says now, for a caller that has asked it already."""
    seat = table.turn_seat
    hand = table.hand
    if hand is None or hand.over or seat is None:
        return []
    if not (table.waits_for_a_person() if waiting is None else waiting):
        return []
    if not table.sent.note_turn_notice((table.hand_number, table.turn_count, seat)):
        return []
    if table.clock() - table.acted_at.get(seat, -1e9) < NOTICE_QUIET_SECONDS:
        return []
    if table.deadline is None:  # an untimed (practice) turn: no seconds to count
        at_table = N_("Your turn at {table} · {game}: {prompt}")
        plain = N_("Your turn · {game}: {prompt}")
    else:
        at_table = N_("Your turn at {table} · {game} · {seconds} s: {prompt}")
        plain = N_("Your turn · {game} · {seconds} s: {prompt}")
    return [call_to_act(table, seat, at_table, plain, hand.time_limit)]


def call_to_act(table: Table, seat: int, at_table: str, plain: str, seconds: int) -> Outgoing:
    """A new private message to the person whose turn it is: ``at_table`` (where the group
    has a name: a player seated in two groups knows which one calls) or ``plain``, with the
    game, the ``seconds`` they have and what they may do."""
    hand, occupant = table.hand, table.seats[seat]
    assert hand is not None and occupant is not None and occupant.user is not None
    lang = table.lang_of(occupant.user)
    prompt = table.front.prompt(lang, hand.view(seat), hand.legal_actions(seat))
    text = t(
        lang,
        at_table if table.title else plain,
        table=table.title,
        game=t(lang, table.game),
        seconds=seconds,
        prompt=prompt,
    )
    return Outgoing(Kind.PRIVATE, table.chat, text, user=occupant.user)


# ----------------------------------------------------------------- messages


def table_message(
    table: Table,
    urgent: bool = True,
    names: list[str] | None = None,
    waiting: bool | None = None,
) -> Outgoing:
    """The table message of the running hand, from a snapshot of the public view taken now;
    its text is written when it is sent (`Outgoing.write`), so superseded states are never
    rendered and the one sent shows the latest time left; `Outgoing.said` writes it for a
    reader of another language (a quick table's players, each told in their own). ``names``
    (`Table.seat_names`) and ``waiting`` (`Table.waits_for_a_person`) may be passed by a caller
    that has them already: this runs after every action."""
    assert table.hand is not None
    view = table.hand.view(None)
    names_now = tuple(table.seat_names() if names is None else names)
    number, lang, front, clock = table.hand_number, table.lang, table.front, table.clock
    # The time left is shown for a person's decision only (an AI or 托管 acts at once).
    if waiting is None:
        waiting = table.waits_for_a_person()
    deadline = table.deadline if waiting else None
    closings, closed = table.closings, len(table.closings.events)
    noted = len(closings.notes)
    earlier: list[Any] | None = None
    notes: list[Note] = []

    def written_in(reader: str) -> str:
        # The first writing takes the closings and notes no state sent so far has covered; a
        # second (the state carried by a post, then edited into the table message; or this
        # state for a reader of another language) shows the same.
        nonlocal earlier, notes
        if earlier is None:
            earlier = closings.unshown(closed)
            notes = closings.unshown_notes(noted)
        left = None if deadline is None else max(0, round(deadline - clock()))
        seen = names_now if reader == lang else tuple(table.seat_names(reader))
        text = front.table_text(reader, view, seen, number, left, earlier)
        return "\n".join([text, *(note(reader) for note in notes)])

    chrome = table.sent.table_chrome
    if chrome[0] != (table.tag, number, lang):  # made once per hand (and language)
        stamp = table.stamp().text()
        my_hand = Button(table.say("My hand"), "/hand", stamp)
        chrome = ((table.tag, number, lang), ((my_hand,),), f"table {stamp}")
        table.sent.keep_chrome(chrome)
    over = table.hand.over
    buttons, slot = (() if over else chrome[1]), chrome[2]  # over: no hand to show
    return Outgoing(
        Kind.TABLE,
        table.chat,
        "",
        buttons=buttons,
        slot=slot,
        urgent=urgent,
        write=lambda: written_in(lang),
        final=over,
        said=written_in,
    )


def private_hands(table: Table, seats: Iterable[int] = range(4)) -> list[Outgoing]:
    """Fresh private hand views for the human seats whose view changed (AI seats get none)."""
    out = []
    for index in seats:
        seat = table.seats[index]
        if seat is None or seat.ai:
            continue
        message = private_hand(table, index)
        if table.sent.note_shown(index, (message.text, message.buttons)):
            out.append(message)
    return out


def fresh_hand(table: Table, index: int, asked: bool = False) -> list[Outgoing]:
    """The seat's private hand, sent even if unchanged (a button was pressed on it; or,
    ``asked``, the player asked for it with /hand: it comes anew, see `Outgoing.asked`)."""
    table.sent.forget_shown(index)
    return [replace(message, asked=asked) for message in private_hands(table, [index])]


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
        N_("Your hand at {table} · {game} · seat {seat}: {cards}")
        if table.title
        else N_("Your hand · {game} · seat {seat}: {cards}")
    )  # the hand names its group
    text = (
        t(
            lang,
            key,
            table=table.title,
            game=t(lang, table.game),
            seat=seat_number(index),
            cards=cards,
        )
        + notes
    )
    selection = table.selection(index) or Selection()
    if selection.size():
        text += "\n" + front.selection_text(lang, selection)
    if hand.over:
        text += "\n" + result_line(table, index, lang)
    elif table.acts_by_itself(index):
        # The same words and one button whoever's turn it is: on 托管 the view changes only
        # when the cards do, not twice a turn ("your turn" would ask for a move the table
        # is about to make for them).
        text += "\n" + t(
            lang,
            "On auto-play (托管): the table plays your turns. Turn auto-play off to play yourself.",
        )
    elif table.turn_seat == index:
        prompt = front.prompt(lang, view, hand.legal_actions(index))
        text += "\n" + t(lang, "Your turn. {prompt}", prompt=prompt)
    buttons = hand_controls(table, index, lang, view, selection)
    slot = f"{HAND_SLOT}{table.stamp().text()}"
    if hand.over and not hand.cards_of(index):
        picture = final_drawing(table, lang)  # the settlement, not a picture of no cards
    else:
        picture = hand_drawing(table, lang, view, seat.name)
    return Outgoing(
        Kind.PRIVATE, table.chat, text, user=seat.user, buttons=buttons, slot=slot, picture=picture
    )


def hand_controls(
    table: Table, index: int, lang: str, view: Any, selection: Selection
) -> tuple[tuple[Button, ...], ...]:
    """The controls of a seat's hand now, as buttons: what its private hand shows under the
    cards, and what the web table draws (`bot.page.seat_view`). None once the hand is over; on
    托管, only the button that turns it off."""
    hand = table.hand
    assert hand is not None
    if hand.over:
        return ()
    if table.acts_by_itself(index):
        toggle = auto_toggle(lang, hand.legal_actions(index), table.stamp())
        return (toggle,) if toggle else ()
    legal = hand.legal_actions(index)
    stamps = Stamps(table.stamp(), table.stamp(turn=True))
    rows = table.front.hand_buttons(lang, view, legal, selection, stamps)
    extra = [
        row
        for row in (
            hint_button(table, index, lang, stamps.turn),
            auto_toggle(lang, legal, stamps.whole),
        )
        if row
    ]
    return tuple([*rows, *extra])


def hint_button(table: Table, index: int, lang: str, stamp: Stamp) -> tuple[Button, ...]:
    """提示 / Hint (`bot.hosting.hinting`), on the seat's own turn while it has hints left."""
    allowed = table.table_options.hints_allowed
    if table.turn_seat != index or table.hints.left(table.hand_number, index, allowed) == 0:
        return ()
    return (Button(t(lang, "Hint"), "/hint", stamp.text()),)


def result_line(table: Table, index: int, lang: str) -> str:
    """What the hand's end leaves in a player's private view: their amount and the match's."""
    result = table.hand.result if table.hand is not None else None
    if result is None or result.void:
        return t(lang, "The hand is over.")
    amount, match = table.staked(result.total)[index], table.match_totals()[index]
    return t(
        lang,
        ENDED_QUICK if is_quick(table.chat) else ENDED,
        amount=money(amount),
        match=money(match),
    )


ENDED = N_("The hand is over: {amount} for you (match {match}). The settlement is in the group.")
ENDED_QUICK = N_("The hand is over: {amount} for you (match {match}). The settlement is below.")
"""At a quick table, which has no group: the settlement comes to each player privately."""

# ----------------------------------------------------------------- pictures


def pictures_wanted(table: Table) -> bool:
    return table.table_options.pictures


def hand_drawing(table: Table, lang: str, view: Any, player: str) -> Callable[[], bytes] | None:
    """The private hand's picture, drawn only when an adapter sends it (None: text only)."""
    if not pictures_wanted(table):
        return None
    try:
        return drawn_hand(table.front.hand_picture(lang, view, player, table.hand_number))
    except PictureError as error:  # a picture is a nicety: the text goes on alone
        log.warning("no hand picture at %s: %s", table.chat, error)
        return None


def final_drawing(table: Table, lang: str) -> Callable[[], bytes] | None:
    """The settlement's picture in a player's language, for their private view once the
    hand is over and their cards are gone."""
    result = table.hand.result if table.hand is not None else None
    if result is None or result.void:
        return None
    totals, running = table.staked(result.total), table.match_totals()
    return settlement_drawing(table, result, table.seat_names(lang), totals, running, lang)


def settlement_drawing(
    table: Table,
    result: Result,
    names: list[str],
    totals: list[Fraction],
    running: list[Fraction],
    lang: str | None = None,
) -> Callable[[], bytes] | None:
    if not pictures_wanted(table):
        return None
    try:
        picture = table.front.settlement_picture(
            lang or table.lang, result, names, totals, running, table.hand_number
        )
    except PictureError as error:
        log.warning("no settlement picture at %s: %s", table.chat, error)
        return None
    return drawn_settlement(picture)
