"""The events made at most turns set their fields through their slots (`slot_setters`), not
the frozen dataclass's own ``__init__``: they must stay the same frozen dataclasses, built
positionally or by keyword, equal, hashed, shown, replaced and pickled as before."""

from __future__ import annotations

import dataclasses
import pickle
from dataclasses import dataclass, field

import pytest

from engine.cards import card
from engine.situan.combos import FOUR_KINGS, Combo
from engine.situan.events import CountAnnounced, Played, RoundWon


@dataclass(frozen=True, slots=True)
class PlainRoundWon:
    seat: int
    points: int
    leader: int | None
    plays: tuple[tuple[int, Combo | None], ...] = field(default=(), compare=False)


def test_the_events_stay_frozen_dataclasses() -> None:
    cards = (card("LJ"),) * 3 + (card("BJ"),)
    made = [
        (Played(1, FOUR_KINGS, cards), Played(seat=1, combo=FOUR_KINGS, cards=cards)),
        (CountAnnounced(2, 5), CountAnnounced(count=5, seat=2)),
        (RoundWon(0, 10, 3, ((0, FOUR_KINGS),)), RoundWon(0, 10, 3)),  # plays: no compare
    ]
    for event, same in made:
        assert event == same and hash(event) == hash(same)
        if not isinstance(event, Played):  # a pickled combination is a copy: not equal
            assert pickle.loads(pickle.dumps(event)) == event
        first = dataclasses.fields(event)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(event, first, 3)
        assert dataclasses.replace(event, seat=3).seat == 3
    assert repr(made[1][0]) == "CountAnnounced(seat=2, count=5)"
    plain = PlainRoundWon(0, 10, 3, ((0, FOUR_KINGS),))
    assert repr(made[2][0]) == repr(plain).replace("PlainRoundWon", "RoundWon")
    assert [f.name for f in dataclasses.fields(RoundWon)] == ["seat", "points", "leader", "plays"]
    assert RoundWon(0, 10, 3).plays == ()
