"""rules-situan.md: Settlement, 墩 bonus, exact amounts."""

from fractions import Fraction

import pytest

from engine.situan.combos import RANK_COUNT, RANK_INDEX
from engine.situan.ending import duns_in_counts
from engine.situan.result import dun_units
from tests.record_actions import outcome
from tests.situan.helpers import script, table

SEVEN_3S = "3 3 3 3 3 3 3"


def counts_of(text: str) -> list[int]:
    counts = [0] * RANK_COUNT
    for rank in text.split():
        counts[RANK_INDEX[rank]] += 1
    return counts


def test_the_winning_team_gets_one_unit_each_and_the_losers_lose_one_each():
    hand = table("3", "4 4", "5", "6 6")
    script(hand, "0:3; 1:4; 2:5")
    assert outcome(hand) is not None and outcome(hand)["stakes"] == ["1", "-1", "1", "-1"]


@pytest.mark.parametrize(("size", "units"), [(7, 1), (8, 2), (9, 3), (10, 4), (11, 5), (12, 6)])
def test_a_seven_card_bomb_is_one_dun_and_each_extra_card_one_more(size, units):
    assert dun_units(size) == units
    assert duns_in_counts(counts_of(" ".join(["9"] * size))) == [size]


def test_three_small_jokers_are_one_dun_and_four_kings_two():
    assert dun_units("LJ3") == 1 and dun_units("KINGS4") == 2
    assert duns_in_counts(counts_of("LJ LJ LJ")) == ["LJ3"]
    assert duns_in_counts(counts_of("LJ LJ LJ BJ")) == ["KINGS4"]
    assert duns_in_counts(counts_of("LJ LJ BJ 9 9 9 9 9 9")) == []


def test_each_other_player_pays_the_owner_dun_value_per_dun_half_a_unit_by_default():
    hand = table(f"{SEVEN_3S} 9", "4 8", "5", "6 6")
    script(hand, "0:9; 1:pass; 2:pass; 3:pass")
    assert outcome(hand) is None
    script(hand, f"0:{SEVEN_3S}")  # seat 0 out with the 墩 it was dealt
    script(hand, "1:pass; 2:pass; 3:pass; 1:4; 2:5")
    result = outcome(hand)
    assert result is not None and result["dun"] == [[7], [], [], []]
    assert result["bonus"] == ["3/2", "-1/2", "-1/2", "-1/2"]


def test_dun_value_option_sets_the_units_per_dun():
    hand = table(f"{SEVEN_3S} 3", "4 8", "5", "6 6", dun_value="1")
    script(hand, "0:33333333; 1:pass; 2:pass; 3:pass; 1:4; 2:5")
    assert outcome(hand) is not None and outcome(hand)["bonus"] == ["6", "-2", "-2", "-2"]


def test_dun_counted_dealt_counts_what_each_player_is_dealt_even_if_split():
    hand = table(f"{SEVEN_3S}", "4 8", "5", "6 6", dun_counted="dealt")
    script(hand, "0:3333; 1:pass; 2:pass; 3:pass; 0:333; 1:pass; 2:pass; 3:pass")
    script(hand, "1:4; 2:5")
    assert outcome(hand) is not None and outcome(hand)["dun"][0] == [7]


def test_dun_counted_dealt_shows_every_dun_to_the_table_when_play_begins():
    hand = table(f"{SEVEN_3S} 9", "LJ LJ LJ BJ", "5", "6 6", dun_counted="dealt")
    assert hand.view(2).duns == ((7,), ("KINGS4",), (), ())
    assert hand.view(None).duns == ((7,), ("KINGS4",), (), ())


def test_dun_counted_played_counts_only_cards_played_together_as_one_combination():
    hand = table(f"{SEVEN_3S}", "4 8", "5", "6 6", dun_counted="played")
    script(hand, "0:3333; 1:pass; 2:pass; 3:pass; 0:333; 1:pass; 2:pass; 3:pass")
    script(hand, "1:4; 2:5")
    assert outcome(hand) is not None and outcome(hand)["dun"] == [[], [], [], []]
    assert outcome(hand)["bonus"] == ["0", "0", "0", "0"]


def test_dun_counted_played_counts_a_seven_card_bomb_played_whole():
    hand = table(f"{SEVEN_3S} 9", "LJ LJ LJ", "5", "6 6", dun_counted="played")
    script(hand, f"0:{SEVEN_3S}; 1:pass; 2:pass; 3:pass; 0:9; 1:pass; 2:pass; 3:pass")
    script(hand, "1:LJLJLJ")  # seat 0 is out; seat 1 leads its three small jokers
    assert hand.played_duns == [(7,), ("LJ3",), (), ()]


def test_a_carried_over_series_pays_once_when_decided_but_dun_is_settled_every_hand():
    hand = table(f"{SEVEN_3S}", "4 J", "6 Q A", "10 10 5 9 8", early_end=False)
    script(hand, f"0:{SEVEN_3S}; 1:pass; 2:pass; 3:pass")  # seat 0 out; seat 1 leads
    script(hand, "1:4; 2:6; 3:9; 1:J; 2:Q; 3:pass; 2:A")
    result = outcome(hand)
    assert result is not None and result["winner"] is None
    assert result["stakes"] == ["0", "0", "0", "0"]
    assert result["bonus"] == ["3/2", "-1/2", "-1/2", "-1/2"]


def test_amounts_are_exact_fractions_never_floats():
    hand = table(f"{SEVEN_3S} 3", "4 8", "5", "6 6", dun_value="1/3")
    script(hand, "0:33333333; 1:pass; 2:pass; 3:pass; 1:4; 2:5")
    result = outcome(hand)
    assert result is not None
    assert result["bonus"] == ["2", "-2/3", "-2/3", "-2/3"]
    assert result["total"] == ["3", "-5/3", "1/3", "-5/3"]
    assert sum(Fraction(x) for x in result["total"]) == 0
