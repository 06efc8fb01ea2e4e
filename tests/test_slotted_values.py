"""The values made at most turns — a play, both games' play events, 四团's round and count, 二七王's
trick, a bid — set their fields through their slots (`engine.slots.slot_setters`), not the frozen
dataclass's own ``__init__``: they must stay the same frozen dataclasses, built positionally or
by keyword, equal, hashed, shown, replaced and pickled as before."""

from __future__ import annotations

import dataclasses
import pickle
from dataclasses import dataclass, field
from typing import Any

import pytest

from engine.actions import Play, action_from_json
from engine.cards import card
from engine.erqiwang import events as erqiwang
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
        assert pickle.loads(pickle.dumps(event)) == event  # a combination loads as the shared one
        first = dataclasses.fields(event)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(event, first, 3)
        assert dataclasses.replace(event, seat=3).seat == 3
    assert repr(made[1][0]) == "CountAnnounced(seat=2, count=5)"
    plain = PlainRoundWon(0, 10, 3, ((0, FOUR_KINGS),))
    assert repr(made[2][0]) == repr(plain).replace("PlainRoundWon", "RoundWon")
    assert [f.name for f in dataclasses.fields(RoundWon)] == ["seat", "points", "leader", "plays"]
    assert RoundWon(0, 10, 3).plays == ()


@dataclass(frozen=True, slots=True)
class PlainTrickWon:
    seat: int
    points: int
    by_defenders: bool
    plays: tuple[tuple[int, tuple[object, ...]], ...] = field(default=(), compare=False)


def test_a_play_and_the_erqiwang_events_stay_frozen_dataclasses() -> None:
    pair = (card("H7"), card("H7"))
    trick = ((0, pair), (1, (card("S3"), card("S4"))))
    made: list[tuple[Any, Any]] = [
        (Play(2, pair), Play(seat=2, cards=pair)),
        (Play(1, ranks=("7", "7")), Play(1, (), ("7", "7"))),
        (erqiwang.Played(3, pair), erqiwang.Played(cards=pair, seat=3)),
        (erqiwang.TrickWon(1, 15, True, trick), erqiwang.TrickWon(1, 15, True)),
        (erqiwang.BidMade(2, 85), erqiwang.BidMade(points=85, seat=2)),
        (erqiwang.BidPassed(1), erqiwang.BidPassed(seat=1)),
    ]
    for value, same in made:
        assert value == same and hash(value) == hash(same)
        assert pickle.loads(pickle.dumps(value)) == value
        with pytest.raises(dataclasses.FrozenInstanceError):
            value.seat = 0
        assert dataclasses.replace(value, seat=0).seat == 0
    assert Play(2, pair) != Play(2, pair[:1]) and Play(2, pair) != Play(1, pair)
    assert Play(0).cards == () and Play(0).ranks == ()
    assert repr(Play(1, ranks=("7",))) == "Play(seat=1, cards=(), ranks=('7',))"
    assert action_from_json({"seat": 2, "act": "play", "cards": ["H7", "H7"]}) == Play(2, pair)
    plain = PlainTrickWon(1, 15, True, trick)
    assert repr(made[3][0]) == repr(plain).replace("PlainTrickWon", "TrickWon")
    assert erqiwang.TrickWon(1, 15, True).plays == ()
    assert erqiwang.TrickWon(1, 15, True) != erqiwang.TrickWon(1, 15, False)
    assert repr(erqiwang.BidMade(2, 85)) == "BidMade(seat=2, points=85)"
    assert erqiwang.BidMade(2, 85) != erqiwang.BidMade(2, 80) and erqiwang.BidPassed(1).seat == 1
