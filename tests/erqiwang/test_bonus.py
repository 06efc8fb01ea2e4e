"""rules-erqiwang.md: Bonus (冲关) — every row of seed 001's table, names, declaring."""

import pytest

from engine.erqiwang.bonus import bonus_of
from engine.erqiwang.events import BonusDeclared
from tests.erqiwang.helpers import FILLER_BOTTOM, cards, dealt, play, playing, refused
from tests.record_actions import Action, outcome

J3 = "BJ LJ LJ"
J4 = "BJ BJ LJ LJ"
M7 = "H7 H7"  # 正7 with hearts trump
F7 = ["S7 S7", "C7 C7", "D7 D7"]  # 副7 pairs
M2 = "H2 H2"
F2 = ["S2 S2", "C2 C2", "D2 D2"]


@pytest.mark.parametrize(
    ("holding", "value", "name"),
    [
        (J3, 1, "冲关"),
        (f"{J3} {M7}", 2, "主7冲关"),
        (f"{J3} {M7} {F7[0]}", 3, "全7冲关"),
        (f"{J3} {M7} {F7[0]} {F7[1]}", 4, "全7冲关"),
        (f"{J3} {M7} {' '.join(F7)}", 5, "全7冲关"),
        (f"{J3} {M7} {F7[0]} {M2}", 4, "主2冲关"),
        (f"{J3} {M7} {F7[0]} {M2} {F2[0]}", 5, "皇后"),
        (f"{J3} {M7} {' '.join(F7)} {M2} {' '.join(F2)}", 9, "皇后"),
        (J4, 3, "大冲关"),
        (f"{J4} {M7}", 4, "主7大冲关"),
        (f"{J4} {M7} {F7[0]}", 5, "全7大冲关"),
        (f"{J4} {M7} {F7[0]} {M2}", 6, "主2大冲关"),
        (f"{J4} {M7} {F7[0]} {M2} {F2[0]}", 7, "皇上"),
    ],
)
def test_every_row_of_the_seed_001_table(holding, value, name):
    bonus = bonus_of(cards(holding + " S3 D9"), "H")
    assert bonus is not None and (bonus.value, bonus.name) == (value, name)


def test_side_7_pairs_need_the_main_7_pair():
    bonus = bonus_of(cards(f"{J3} {F7[0]} {F7[1]}"), "H")
    assert bonus is not None and bonus.value == 1


def test_main_2_pair_needs_a_side_7_pair():
    bonus = bonus_of(cards(f"{J3} {M7} {M2}"), "H")
    assert bonus is not None and bonus.value == 2


def test_side_2_pairs_need_the_main_2_pair():
    bonus = bonus_of(cards(f"{J3} {M7} {F7[0]} {F2[0]}"), "H")
    assert bonus is not None and bonus.value == 3


def test_fewer_than_three_jokers_is_no_bonus():
    assert bonus_of(cards(f"BJ LJ {M7} {F7[0]} {M2}"), "H") is None


def test_with_no_trump_suit_only_the_joker_part_exists():
    bonus = bonus_of(cards(f"{J4} {M7} {F7[0]}"), None)
    assert bonus is not None and bonus.value == 3


def test_declaring_shows_the_qualifying_cards_to_the_table():
    hand = playing("S3 S4", f"{J3} {M7} S9", "S8 S5", "SJ SQ")
    events = hand.apply(Action(1, "declare_bonus"))
    assert BonusDeclared(1, "主7冲关", 2, cards("BJ LJ LJ H7 H7")) in events
    assert hand.view(3).bonuses[1] == ("主7冲关", 2, cards("BJ LJ LJ H7 H7"))


def test_it_counts_only_if_declared_once_before_the_players_first_card():
    hand = playing("S3 S4", f"{J3} S9 S10", "S8 S5", "SJ SQ")
    hand.apply(Action(1, "declare_bonus"))
    assert refused(hand, Action(1, "declare_bonus")) == "no_bonus"
    play(hand, 0, "S3")
    play(hand, 1, "S9")
    other = playing("S3 S4", f"{J3} S9 S10", "S8 S5", "SJ SQ")
    play(other, 0, "S3")
    play(other, 1, "S9")
    assert refused(other, Action(1, "declare_bonus")) == "wrong_phase"


def test_the_declarers_window_opens_only_after_burying_the_others_at_trump_naming():
    early = dealt(f"{J3} S3", f"{J3} S5", "S8 S9", "SJ SQ")
    early.apply(Action(0, "bid", points=80))
    for seat in (1, 2, 3):
        early.apply(Action(seat, "pass"))
    assert refused(early, Action(1, "declare_bonus")) == "wrong_phase"  # no trump yet
    early.apply(Action(0, "trump", suit="H"))
    assert refused(early, Action(0, "declare_bonus")) == "wrong_phase"  # not buried yet
    early.apply(Action(1, "declare_bonus"))  # a defender may declare now
    early.apply(Action(0, "bury", cards=cards(FILLER_BOTTOM)))
    early.apply(Action(0, "declare_bonus"))
    assert sorted(early.bonuses) == [0, 1]


def test_a_player_without_a_bonus_is_refused_with_no_bonus():
    hand = playing("S3 S4", "S9 S10", "S8 S5", "SJ SQ")
    assert refused(hand, Action(2, "declare_bonus")) == "no_bonus"


def test_each_other_player_pays_the_bonus_at_times_one_whatever_the_bid():
    hand = playing("S3 S4 S5 S6 S8", f"{J3} {M7}", "S9 S10 SJ SQ SK", "D3 D4 D5 D6 D8",
                   bid=0, bonus_scoring="units")  # fmt: skip  # bid 0: the stakes are ×8
    hand.apply(Action(1, "declare_bonus"))
    while not hand.over:
        seat = hand.turn
        hand.apply(Action(seat, "play", cards=hand.legal_plays()[0]))
    result = outcome(hand)
    assert result is not None
    assert result["bonuses"] == [{"seat": 1, "name": "主7冲关", "value": 2}]
    assert result["bonus"] == ["-2", "6", "-2", "-2"]


def test_on_surrender_only_the_joker_part_counts():
    hand = playing("S3 S4", f"{J4} {M7} {F7[0]}", "S8 S5", "SJ SQ", bid=100)
    hand.apply(Action(1, "declare_bonus"))
    hand.apply(Action(0, "surrender"))
    result = outcome(hand)
    assert result is not None and result["bonuses"] == [{"seat": 1, "name": "大冲关", "value": 3}]
    assert result["bonus"] == ["-3", "9", "-3", "-3"]
