"""From an action to the rule that judges it: what both games' hands do alike with an action.

A game lists, per kind of action, the function that checks it and the one that applies it
(`Dispatch`); the hand's `check` and `apply` go through here, so that an unknown kind, a seat
that is none, and what enters the history are decided once for both games.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from engine.actions import Action, Auto
from engine.errors import IllegalAction


class Dispatched(Protocol):
    def record(self, action: Action) -> None:
        """The hand's own operation that enters an applied action in its history."""


HandT = TypeVar("HandT", bound=Dispatched)
EventT = TypeVar("EventT")


@dataclass(frozen=True)
class Dispatch(Generic[HandT, EventT]):
    """A game's checks and handlers by kind of action; ``title`` names the game in the
    refusal of a kind it does not know (``'bury' is not a 四团 action``)."""

    title: str
    checks: Mapping[type[Action], Callable[[HandT, Any], object]]
    handlers: Mapping[type[Action], Callable[[HandT, Any], list[EventT]]]

    def check(self, hand: HandT, action: Action) -> None:
        """Raise `IllegalAction` if the rules refuse ``action``; change nothing."""
        checker = self.checks.get(type(action))
        if checker is None:
            raise self.unknown(action)
        check_seat(action.seat)
        checker(hand, action)

    def apply(self, hand: HandT, action: Action) -> list[EventT]:
        """Apply ``action`` and record it in the history, or raise `IllegalAction` and change
        nothing. An `Auto` that changes nothing is no step, and is not recorded."""
        handler = self.handlers.get(type(action))
        if handler is None:
            raise self.unknown(action)
        seat = action.seat
        if type(seat) is not int or not 0 <= seat < 4:  # called after every action: no call
            check_seat(seat)
        events = handler(hand, action)
        if events or type(action) is not Auto:
            hand.record(action)
        return events

    def unknown(self, action: Action) -> IllegalAction:
        return IllegalAction(
            "bad_action", f"{action.act!r} is not a {self.title} action", act=action.act
        )


def check_seat(seat: object) -> None:
    """Raise `IllegalAction` unless ``seat`` is one of the four (a bool is no seat)."""
    if type(seat) is not int or not 0 <= seat < 4:
        raise IllegalAction("bad_action", f"no seat {seat!r}", seat=seat)
