"""A finished hand's record (`/export`) stepped through on the web table, every hand shown:
the engine replays the record one action at a time (as ``python -m engine replay`` does),
and each step is drawn as the public board with all four hands beside it, and who did what in
the reader's language (the game's own narration where it has one, else the move itself).

Seats are named as the record's ``names`` give them (a stored hand's players, from its ledger
lines), else by their numbers as people read them, 1 to 4."""

from __future__ import annotations

from typing import Any

from bot.games import FRONTS
from bot.i18n import N_, t
from bot.views.shared_texts import cards_text, rank_text, seat_number
from engine.actions import Action, Auto, Bid, Pass, Play, Timeout
from engine.errors import EngineError

MAX_ACTIONS = 2000
"""More actions than any hand has: a record beyond this is refused unread."""


UNSAID = frozenset({"seat", "hinted"})
"""Fields of a recorded action its line does not say (the seat is named first; a hint's mark
is the player's own business)."""
NAME_LENGTH = 64
"""Characters of a seat's name kept from a record's ``names``."""


class BadRecord(Exception):
    """A record that cannot be replayed: the message says why, in the reader's language."""


def replay_frames(record: Any, lang: str) -> dict[str, Any]:
    """Every step of ``record``: the hands, the public board, who did what, and whether the
    step closed a trick or round (the page steps trick by trick through those)."""
    if not isinstance(record, dict) or record.get("game") not in FRONTS:
        raise BadRecord(t(lang, N_("This is not a hand record: paste what /export sends.")))
    front = FRONTS[str(record["game"])]
    actions = record.get("actions") or []
    if not isinstance(actions, list) or len(actions) > MAX_ACTIONS:
        raise BadRecord(t(lang, N_("This is not a hand record: paste what /export sends.")))
    names = _names(record.get("names"), lang)
    frames = []
    try:
        hand = front.game.hand_from_record(record)
        frames.append(_frame(front, hand, lang, names, "", closes=False))
        for raw in actions:
            action = front.game.action_from_json(raw)
            events = hand.apply(action)
            closes = any(front.closes_a_trick(event) for event in events)
            said = _said(front, lang, names, action, events, raw)
            frames.append(_frame(front, hand, lang, names, said, closes))
    except (EngineError, ValueError, KeyError, TypeError) as error:
        step = len(frames)
        raise BadRecord(
            t(
                lang,
                N_("The record cannot be replayed at step {step}: {reason}"),
                step=step,
                reason=str(error)[:200],
            )
        ) from None
    return {"game": front.name, "title": t(lang, front.title), "names": names, "frames": frames}


def _names(given: Any, lang: str) -> list[str]:
    """The seats' names: the record's ``names`` when it gives four, else "seat 1" to "seat 4"."""
    if isinstance(given, list) and len(given) == 4 and all(isinstance(n, str) for n in given):
        return [name[:NAME_LENGTH] for name in given]
    return [t(lang, "seat {seat}", seat=seat_number(seat)) for seat in range(4)]


def _frame(
    front: Any, hand: Any, lang: str, names: list[str], said: str, closes: bool
) -> dict[str, Any]:
    board = front.board(lang, hand.view(None), names).to_json()
    hands = [[str(card) for card in hand.cards_of(seat)] for seat in range(4)]
    result = hand.result if hand.over else None  # the last step: how it ended
    outcome = front.outcome_text(lang, result, names) if result is not None else ""
    return {"hands": hands, "board": board, "said": said, "closes": closes,
            "over": hand.over, "turn": hand.to_act, "outcome": outcome}  # fmt: skip


def _said(
    front: Any, lang: str, names: list[str], action: Action, events: list[Any], raw: Any
) -> str:
    """Who did what at this step: the game's narration of it (a bid that ends the bidding,
    trump named, 亮牌…), else the move in the reader's words."""
    told = [line for event in events if (line := front.narrate(lang, event, names))]
    if told:
        return " ".join(told)
    if isinstance(action, Play):
        what = cards_text(lang, action.cards) or " ".join(rank_text(lang, r) for r in action.ranks)
    elif isinstance(action, Pass):
        what = t(lang, "pass")
    elif isinstance(action, Bid):
        what = str(action.points)
    elif isinstance(action, Auto):
        what = t(lang, N_("托管 on")) if action.on else t(lang, N_("托管 off"))
    elif isinstance(action, Timeout):
        what = t(lang, N_("time ran out: 托管 played"))
    else:  # as the record writes it
        what = " ".join(_words(v) for k, v in raw.items() if k not in UNSAID)
    return t(lang, "{name}: {play}", name=names[action.seat], play=what)


def _words(value: Any) -> str:
    """An action's field as the record writes it: cards apart, the rest as it is."""
    return " ".join(map(str, value)) if isinstance(value, list) else str(value)
