"""A finished hand's record (`/export`) stepped through on the web table, every hand shown:
the engine replays the record one action at a time (as ``python -m engine replay`` does),
and each step is drawn as the public board with all four hands beside it."""

from __future__ import annotations

from typing import Any

from bot.games import FRONTS
from bot.i18n import N_, t
from engine.errors import EngineError

MAX_ACTIONS = 2000
"""More actions than any hand has: a record beyond this is refused unread."""


UNSAID = frozenset({"seat", "hinted"})
"""Fields of a recorded action its line does not say (the seat is named first; a hint's mark
is the player's own business)."""


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
    names = [t(lang, "seat {seat}", seat=seat) for seat in range(4)]
    frames = []
    try:
        hand = front.game.hand_from_record(record)
        frames.append(_frame(front, hand, lang, names, None, closes=False))
        for raw in actions:
            action = front.game.action_from_json(raw)
            events = hand.apply(action)
            closes = any(front.closes_a_trick(event) for event in events)
            frames.append(_frame(front, hand, lang, names, raw, closes))
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


def _frame(
    front: Any, hand: Any, lang: str, names: list[str], raw: Any, closes: bool
) -> dict[str, Any]:
    board = front.board(lang, hand.view(None), names).to_json()
    hands = [[str(card) for card in hand.cards_of(seat)] for seat in range(4)]
    said = ""
    if isinstance(raw, dict):
        seat = raw.get("seat")
        what = " ".join(_words(v) for k, v in raw.items() if k not in UNSAID)
        said = f"{names[seat]}: {what}" if isinstance(seat, int) and 0 <= seat < 4 else what
    return {"hands": hands, "board": board, "said": said, "closes": closes,
            "over": hand.over, "turn": hand.to_act}  # fmt: skip


def _words(value: Any) -> str:
    """An action's field as the record writes it: cards apart, the rest as it is."""
    return " ".join(map(str, value)) if isinstance(value, list) else str(value)
