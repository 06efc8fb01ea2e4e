"""`engine.slots.slot_setters` takes a dataclass's field list from the dataclass itself: a field
added to `Play` (or to an event written the same way) and not to its ``__init__`` fails when
the module is imported, not at the first value made without it."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import pytest

from engine.actions import Play
from engine.slots import slot_setters


@dataclass(frozen=True, slots=True)
class Dot:
    x: int
    y: int

    def __init__(self, x: int, y: int) -> None:
        set_x, set_y = slot_setters(Dot)
        set_x(self, x)
        set_y(self, y)


@dataclass(frozen=True, slots=True)
class Grown:
    x: int
    y: int
    z: int = 0  # added to the class, not to its __init__

    def __init__(self, x: int, y: int) -> None:
        object.__setattr__(self, "x", x)
        object.__setattr__(self, "y", y)


def test_the_setters_follow_the_dataclass_fields() -> None:
    assert Dot(1, 2) == Dot(x=1, y=2) and repr(Dot(1, 2)) == "Dot(x=1, y=2)"
    assert len(slot_setters(Play)) == len(dataclasses.fields(Play)) == 3
    play = Play(2, ranks=("7", "7"))
    assert (play.seat, play.cards, play.ranks) == (2, (), ("7", "7"))


def test_a_field_the_init_does_not_take_is_refused() -> None:
    with pytest.raises(TypeError, match=r"Grown.__init__ takes \['x', 'y'\].*'z'"):
        slot_setters(Grown)
