"""rules-erqiwang.md: option ``bonus_scoring`` — ``units`` (paid apart at ×1) or ``points``
(40 card points per 关 to the owner's side, before the win check); the presets' choices; and
the table declaring a 冲关 when it acts for a seat (before its auto action and right after)."""

from __future__ import annotations

import pytest

from engine.erqiwang import ErqiwangHand, ErqiwangResult, Rules
from engine.erqiwang.events import BonusDeclared, Buried
from engine.errors import RecordError
from tests.erqiwang.helpers import cards, dealt, playing, trick
from tests.record_actions import Action, outcome

DEFENDERS_95 = ("S10 SK C10", "BJ LJ LJ", "S5 SQ CK", "D10 DK C5")
"""Seat 1 holds 冲关 (three jokers, value 1) and wins every trick: 70 in cards."""
BOTTOM_25 = "D5 DK H10 D3 D4 D6 D8 D9"
"""25 points, buried and caught by seat 1's last trump: the defenders' 95."""


def _defenders_take_95(bonus_scoring: str) -> dict[str, object]:
    hand = playing(*DEFENDERS_95, bid=120, bottom=BOTTOM_25, bonus_scoring=bonus_scoring)
    hand.apply(Action(1, "declare_bonus"))
    trick(hand, "S10", "BJ", "S5", "D10")
    trick(hand, "LJ", "SQ", "DK", "SK")
    trick(hand, "LJ", "CK", "C5", "C10")
    result = outcome(hand)
    assert result is not None
    return result


def test_points_a_defenders_bonus_adds_40_per_value_before_the_win_check():
    """The rules page's example: bid 120, 95 in cards, a defender's 冲关 of 1: 95 + 40 = 135
    ≥ 120, so the defenders win, one level: declarer −3, each defender +1."""
    result = _defenders_take_95("points")
    assert result["defender_points"] == 135 and result["bonus_points"] == 40
    assert result["declarer_won"] is False
    assert result["stakes"] == ["-3", "1", "1", "1"]
    assert result["bonus"] == ["0", "0", "0", "0"]
    assert result["total"] == ["-3", "1", "1", "1"]
    assert result["bonuses"] == [{"seat": 1, "name": "冲关", "value": 1}]


def test_units_the_same_hand_is_won_by_the_declarer_and_the_bonus_is_paid_apart():
    result = _defenders_take_95("units")
    assert result["defender_points"] == 95 and result["bonus_points"] == 0
    assert result["declarer_won"] is True
    assert result["stakes"] == ["3", "-1", "-1", "-1"]
    assert result["bonus"] == ["-1", "3", "-1", "-1"]
    assert result["total"] == ["2", "2", "-2", "-2"]


DECLARER_BONUS = ("BJ LJ LJ S3", "S5 D3 D4 D6", "SK C3 C4 C6", "S10 D8 D9 C8")


def _declarers_bonus_hand(bonus_scoring: str) -> dict[str, object]:
    hand = playing(*DECLARER_BONUS, bid=80, bonus_scoring=bonus_scoring)
    hand.apply(Action(0, "declare_bonus"))
    trick(hand, "BJ", "D3", "C3", "D8")
    trick(hand, "LJ", "D4", "C4", "D9")
    trick(hand, "LJ", "D6", "C6", "C8")
    trick(hand, "S3", "S5", "SK", "S10")  # 25 to seat 2, with a side card: no bottom
    result = outcome(hand)
    assert result is not None
    return result


def test_points_the_declarers_bonus_takes_40_from_the_defenders_but_not_below_0():
    result = _declarers_bonus_hand("points")
    assert result["defender_points"] == 0  # 25 − 40, clamped at 0
    assert result["bonus_points"] == -25  # what actually moved
    assert result["declarer_won"] is True
    # tiered: bid 80 is m 2; points 0 → levels ⌊80/40⌋ + 1 = 3 → 3·2·3
    assert result["stakes"] == ["18", "-6", "-6", "-6"]
    assert result["bonus"] == ["0", "0", "0", "0"]


def test_units_the_declarers_bonus_leaves_the_points_and_is_paid_apart():
    result = _declarers_bonus_hand("units")
    assert result["defender_points"] == 25 and result["bonus_points"] == 0
    assert result["stakes"] == ["12", "-4", "-4", "-4"]  # levels ⌊55/40⌋ + 1 = 2
    assert result["bonus"] == ["3", "-1", "-1", "-1"]


def test_points_an_undeclared_bonus_moves_nothing():
    hand = playing(*DEFENDERS_95, bid=120, bottom=BOTTOM_25, bonus_scoring="points")
    trick(hand, "S10", "BJ", "S5", "D10")
    trick(hand, "LJ", "SQ", "DK", "SK")
    trick(hand, "LJ", "CK", "C5", "C10")
    result = outcome(hand)
    assert result is not None
    assert result["defender_points"] == 95 and result["bonus_points"] == 0
    assert result["bonuses"] == [] and result["declarer_won"] is True


def test_points_a_surrender_pays_the_joker_part_as_units():
    hand = playing(
        "S3 S4", "BJ BJ LJ LJ H7 H7 S7 S7", "S8 S5", "SJ SQ", bid=100, bonus_scoring="points"
    )
    hand.apply(Action(1, "declare_bonus"))
    hand.apply(Action(0, "surrender"))
    result = outcome(hand)
    assert result is not None
    assert result["bonuses"] == [{"seat": 1, "name": "大冲关", "value": 3}]
    assert result["bonus"] == ["-3", "9", "-3", "-3"]
    assert result["defender_points"] == 100 and result["bonus_points"] == 0
    assert result["stakes"] == ["-3", "1", "1", "1"]  # tiered, bid 100 = points: one level


def test_bonus_points_is_in_every_result_and_a_redeal_stays_redeal_only():
    fields = list(ErqiwangResult(declarer=0, bid=80).to_json())
    assert fields.index("bonus_points") == fields.index("declarer_won") + 1
    assert ErqiwangResult(redeal=True).to_json() == {"redeal": True}
    hand = dealt("S3", "S4", "S5", "S6")
    for seat in range(4):
        hand.apply(Action(seat, "pass"))
    assert outcome(hand) == {"redeal": True}


@pytest.mark.parametrize(
    ("preset", "bonus_scoring"),
    [("classic", "points"), ("online", "units"), ("proportional", "units"), ("one_deck", "units")],
)
def test_the_presets_bonus_scoring(preset, bonus_scoring):
    assert Rules.from_preset(preset).bonus_scoring == bonus_scoring


def test_bonus_scoring_is_units_or_points():
    assert Rules.from_preset("online", bonus_scoring="points").bonus_scoring == "points"
    with pytest.raises(RecordError) as error:
        Rules.from_preset("classic", bonus_scoring="both")
    assert error.value.code == "bad_rules"


# ------------------------------------------------------------------ auto-declare


def _in_bury(*hands: str) -> ErqiwangHand:
    hand = dealt(*hands)
    hand.apply(Action(0, "bid", points=80))
    for seat in (1, 2, 3):
        hand.apply(Action(seat, "pass"))
    hand.apply(Action(0, "trump", suit="H"))
    return hand


def test_an_auto_bury_declares_the_declarers_bonus_at_once():
    hand = _in_bury("BJ LJ LJ SA", "S5 S6", "S8 S9", "SJ SQ")
    events = hand.apply(Action(0, "timeout"))
    assert Buried(0) in events
    assert BonusDeclared(0, "冲关", 1, cards("BJ LJ LJ")) in events
    assert events.index(BonusDeclared(0, "冲关", 1, cards("BJ LJ LJ"))) > events.index(Buried(0))
    assert 0 in hand.bonuses


def test_the_auto_bury_declares_only_for_the_seat_the_table_acts_for():
    hand = _in_bury("SA SK", "BJ LJ LJ S6", "S8 S9", "SJ SQ")
    events = hand.apply(Action(0, "timeout"))
    assert not any(isinstance(e, BonusDeclared) for e in events)
    assert hand.bonuses == {}


def test_an_auto_trump_does_not_declare_the_declarers_bonus_before_burying():
    hand = dealt("BJ LJ LJ SA", "S5 S6", "S8 S9", "SJ SQ")
    hand.apply(Action(0, "bid", points=80))
    for seat in (1, 2, 3):
        hand.apply(Action(seat, "pass"))
    events = hand.apply(Action(0, "timeout"))
    assert hand.phase == "bury"
    assert not any(isinstance(e, BonusDeclared) for e in events)


def test_a_timed_out_defender_declares_before_its_auto_play():
    hand = playing("S3 S4", "BJ LJ LJ S9", "S8 S5", "SJ SQ")
    hand.apply(Action(0, "play", cards=cards("S3")))
    events = hand.apply(Action(1, "timeout"))
    assert isinstance(events[1], BonusDeclared) and events[1].seat == 1
    assert 1 in hand.bonuses
