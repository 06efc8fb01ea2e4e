"""Typed actions built from the hand record's act names (``Action(0, "bid", points=75)``),
so that rule tests read like the records they stand for."""

from __future__ import annotations

from typing import Any

from engine.actions import (
    Action as AnyAction,
)
from engine.actions import (
    Auto,
    Bid,
    Bury,
    DeclareBonus,
    NameTrump,
    Pass,
    PickShow,
    Play,
    StartShow,
    Surrender,
    Timeout,
)
from engine.situan.combos import RANKS


class Unknown:
    """An act no game knows (for the ``bad_action`` tests)."""

    def __init__(self, seat: int, act: str) -> None:
        self.seat = seat
        self.act = act


def Action(seat: int, act: str, **fields: Any) -> AnyAction:
    if act == "play":
        ranks = fields.get("ranks")
        if ranks is not None:
            return Play(seat, ranks=tuple(RANKS[r] if isinstance(r, int) else r for r in ranks))
        return Play(seat, cards=tuple(fields.get("cards") or ()))
    if act == "bury":
        return Bury(seat, tuple(fields["cards"]))
    if act == "bid":
        return Bid(seat, fields["points"])
    if act == "trump":
        return NameTrump(seat, fields["suit"])
    if act == "show_pick":
        return PickShow(seat, fields["reveal"])
    if act == "auto":
        return Auto(seat, fields["on"])
    simple = {"pass": Pass, "surrender": Surrender, "declare_bonus": DeclareBonus,
              "show_start": StartShow, "timeout": Timeout}  # fmt: skip
    if act in simple:
        return simple[act](seat)  # type: ignore[no-any-return]
    return Unknown(seat, act)  # type: ignore[return-value]


def outcome(hand: Any) -> dict[str, Any] | None:
    """A hand's result in its record form (None while the hand runs)."""
    return None if hand.result is None else hand.result.to_json()  # type: ignore[no-any-return]
