"""One seat's view of a table as the web table draws it: plain JSON values, made from what
the chat table is made from — the seat's own `view(seat)` (a spectator's: the public view),
the game's front (`GameFront.board`, its texts and its buttons) and the table's seats and
timer. A seat's page gets its own cards and nothing of another seat's.

The page's controls are the private hand's buttons (`bot.table.hand_views.hand_controls`), as
actions the page sends back as commands; the page keeps the chosen cards itself and sends
them with the play, so the buttons that pick cards are left out. Whether a choice may be
played is the engine's to say (`verdict`), never the page's.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

from bot.commands.registry import NOT_ON_PAGE, PLAYS_CHOSEN, PRESSED_IN_PRIVATE
from bot.games import BadInput
from bot.i18n import N_, t
from bot.table.hand_views import hand_controls
from bot.table.hint_answers import hint_on_page
from bot.table.playing import refusal_text
from bot.table.state import BETWEEN, CLOSED, PLAYING, Table
from bot.views.controls import Selection
from bot.views.outgoing import Button
from bot.views.shared_texts import ledger_text
from engine.errors import IllegalAction
from engine.game import AnyHand

STATE_VERSION = 1
CHOSEN = Selection(Counter({"…": 1}))
"""Stands for the cards a page has chosen when its controls are asked for: the buttons a
private hand shows once cards are chosen (Play or Bury) are the page's controls; which
cards, the page says when it sends the play."""
PAGE_COMMANDS = PRESSED_IN_PRIVATE | {"ready"}
"""What a page may send: the controls of a player's own hand (the same set a button in a
private chat may press), and Ready between hands."""
WORDS = {
    "watching": N_("You are watching: the public view only."),
    "offline": N_("Connection lost: reconnecting…"),
    "denied": N_("This link is not valid (any more). Open the table again from the chat."),
    "over": N_("The match is over."),
    "playable": N_("Playable"),
    "seconds": N_("{seconds} s"),
    "hide": N_("Hide"),
    "settlement": N_("Settlement"),
    "replay": N_("Replay this hand"),
    "rules": N_("Rules"),
    "auto": N_("(auto)"),
    "ai": N_("AI"),
    "pass": N_("pass"),
    "LJ": N_("LJ"),
    "BJ": N_("BJ"),
}
"""The page's own words, sent with every state in the reader's language."""
ON_AUTO = N_(
    "On auto-play (托管): the table plays for you. Press “{button}” to play yourself again."
)
"""The notice of a player on 托管: the page shows the button (its label, "托管 off")."""


VERDICTS = {"bury": N_("Can be buried")}
"""What the page says of chosen cards the engine takes, by move ("Playable" for a play)."""


UNKNOWN_READER = ("zh-Hans", "en")
"""A page the server cannot name (no credential, or a bad one) is told in both."""


def unknown_reader_words(key: str) -> str:
    """One of the page's `WORDS` for a reader whose language is not known: each language's
    line, one under the other."""
    return "\n".join(t(lang, WORDS[key]) for lang in UNKNOWN_READER)


def reader_lang(table: Table, user: str | None, asked: str | None) -> str:
    """The language of ``user``'s page: a seated player's own, else the one their platform
    says (``asked``), else the table's."""
    if user is not None and table.seat_of(user) is not None:
        return table.lang_of(user)
    return asked or table.lang


def page_state(table: Table, user: str | None, lang: str) -> dict[str, Any]:
    """What ``user``'s page shows now (not seated, or None: a spectator's public view)."""
    seat = table.seat_of(user) if user is not None else None
    hand = shown_hand(table)
    names = table.seat_names(lang)
    front = table.front
    state: dict[str, Any] = {
        "v": STATE_VERSION,
        "game": table.game,
        "title": t(lang, front.title),
        "number": table.hand_number,
        "moves": table.turn_count,
        "phase": str(table.state),
        "lang": lang,
        "you": seat,
        "seats": [],
        "turn": None,
        "seconds": None,
        "board": None,
        "controls": [],
        "prompt": "",
        "settlement": "",
        "notice": "",
        "hint": {},
        "replay": None,
        "words": {key: t(lang, message) for key, message in WORDS.items()},
    }
    view = None if hand is None else hand.view(seat)
    if hand is not None and view is not None:
        board = front.board(lang, view, names)
        state["board"] = board.to_json()
        if not hand.over and table.state == PLAYING:
            state["turn"] = table.turn_seat
            if table.waits_for_a_person():
                state["seconds"] = table.seconds_left()
        if seat is not None and table.turn_seat == seat and not hand.over:
            state["prompt"] = front.page_prompt(lang, view, hand.legal_actions(seat))
            state["hint"] = hint_on_page(table, seat, lang, board.hand)
        state["settlement"] = settlement(table, hand, lang)
        if state["settlement"]:  # the hand just settled, stepped through from its record
            state["replay"] = table.hand_number
    state["seats"] = seats(table, names, state["board"])
    if seat is not None:
        state["controls"] = controls(table, seat, lang, view)
    if table.state == CLOSED:
        state["notice"] = (
            t(lang, "The match is over.") + "\n" + ledger_text(lang, table.ledger, table.names)
        )
    elif table.state == BETWEEN and seat is not None and _ready(table, seat):
        state["notice"] = t(lang, "Waiting for the others to be ready.")
    elif seat is not None and on_auto(table, seat):
        state["notice"] = t(lang, ON_AUTO, button=t(lang, "托管 off"))
    return state


def shown_hand(table: Table) -> AnyHand | None:
    """The hand the page draws: the one being played or just settled, and once the match
    is over the hand it ended with (its settlement stays beside the match's score)."""
    if table.state in (PLAYING, BETWEEN):
        return table.hand
    return table.last_hand if table.state == CLOSED else None


def on_auto(table: Table, seat: int) -> bool:
    """Whether the table plays ``seat``'s hand for its player now (托管, set by the player or
    by their time-outs), the player still there to take it back."""
    hand, occupant = table.hand, table.seats[seat]
    if table.state != PLAYING or hand is None or hand.over or occupant is None:
        return False
    return bool(hand.auto[seat]) and not occupant.ai and not occupant.left


def seats(table: Table, names: list[str], board: dict[str, Any] | None) -> list[dict[str, Any]]:
    hand = table.hand if board is not None and table.state != CLOSED else None
    out = []
    for index, occupant in enumerate(table.seats):
        out.append(
            {
                "seat": index,
                "name": names[index],
                "empty": occupant is None,
                "ai": occupant is not None and occupant.ai,
                "auto": bool(hand is not None and hand.auto[index]),
                "count": board["counts"][index] if board is not None else "",
                "marks": board["marks"][index] if board is not None else [],
            }
        )
    return out


def settlement(table: Table, hand: AnyHand | None, lang: str) -> str:
    """The settlement of ``hand`` once over, as the group was told it (none for a redeal)."""
    result = None if hand is None or not hand.over else hand.result
    if result is None or result.void:
        return ""
    totals = table.staked(result.total)
    running: list[Fraction] = table.match_totals()
    return table.front.settlement_text(lang, result, table.seat_names(lang), totals, running)


def _ready(table: Table, seat: int) -> bool:
    occupant = table.seats[seat]
    return occupant is not None and occupant.ready


def controls(table: Table, seat: int, lang: str, view: Any) -> list[dict[str, Any]]:
    """The seat's controls now: its hand's buttons, and Ready between hands."""
    if table.state == BETWEEN and not _ready(table, seat):
        return [
            {
                "action": "ready",
                "args": [],
                "label": t(lang, "Ready"),
                "stamp": None,
                "cards": False,
            }
        ]
    hand = table.hand
    if table.state != PLAYING or hand is None or view is None:
        return []
    out = []
    for row in hand_controls(table, seat, lang, view, CHOSEN):
        for button in row:
            control = _control(table, seat, button)
            if control is not None:
                out.append(control)
    return out


def _control(table: Table, seat: int, button: Button) -> dict[str, Any] | None:
    name, *args = button.command.removeprefix("/").split()
    if name in NOT_ON_PAGE or button.url:
        return None
    if name in PLAYS_CHOSEN:  # the chosen cards: played, or buried while burying
        assert table.hand is not None
        name = table.front.selection_action(table.hand, seat, Selection()).act
        return {"action": name, "args": [], "label": button.label, "stamp": button.stamp,
                "cards": True}  # fmt: skip
    return {"action": name, "args": args, "label": button.label, "stamp": button.stamp,
            "cards": False}  # fmt: skip


def verdict(table: Table, user: str, name: str, cards: list[str], lang: str) -> tuple[bool, str]:
    """Whether ``user`` may make the move ``name`` (play or bury) with ``cards`` now: the
    engine's judgement (`check`), changing nothing, and the refusal in ``lang``."""
    seat = table.seat_of(user)
    hand = table.hand
    if seat is None or table.state != PLAYING or hand is None or hand.over:
        return False, t(lang, "No hand is being played.")
    if not cards:
        return False, t(lang, "Choose cards first.")
    try:
        action = table.front.command_action(hand, seat, name, tuple(cards))
        hand.check(action)
    except BadInput as bad:
        return False, t(lang, bad.key, **bad.values)
    except IllegalAction as refusal:
        return False, refusal_text(table, refusal, lang, seat)
    return True, t(lang, VERDICTS.get(name, "Playable"))
