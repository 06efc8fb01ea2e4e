"""rules-situan.md: Combinations (牌型) and Beating."""

import pytest

from engine.errors import IllegalAction
from engine.situan.combos import RANK_INDEX, combo_of_ranks
from tests.record_actions import Action
from tests.situan.helpers import play, refused_play, table


def combo(text: str):
    return combo_of_ranks([RANK_INDEX[r] for r in text.split()])


def test_a_single_is_any_card_and_the_big_joker_is_the_top_single():
    assert combo("3").kind == "single"
    assert all(combo("BJ").beats(combo(r)) for r in ("2", "LJ", "A"))
    assert not combo("LJ").beats(combo("BJ"))


def test_a_pair_is_two_of_one_rank_and_two_small_jokers_are_the_top_pair():
    assert combo("9 9").kind == "pair"
    assert combo("LJ LJ").beats(combo("2 2"))


def test_small_joker_and_big_joker_are_not_a_pair():
    assert combo("LJ BJ") is None


def test_a_triple_is_three_of_one_rank_and_three_small_jokers_are_the_top_triple():
    assert combo("J J J").kind == "triple"
    assert combo("LJ LJ LJ").beats(combo("2 2 2"))


@pytest.mark.parametrize("size", range(4, 13))
def test_a_bomb_is_4_to_12_of_one_rank(size):
    assert combo(" ".join(["8"] * size)).kind == "bomb"


def test_four_kings_is_a_bomb_of_three_small_jokers_and_the_big_joker():
    kings = combo("LJ LJ LJ BJ")
    assert kings.kind == "kings" and kings.is_bomb


@pytest.mark.parametrize("text", ["3 4 5 6 7", "7 7 8", "7 7 7 8 8", "3 4", "LJ LJ BJ", "2 LJ"])
def test_there_are_no_sequences_no_kickers_no_mixed_ranks(text):
    assert combo(text) is None


def test_singles_pairs_triples_beat_the_same_kind_with_a_strictly_higher_rank():
    assert combo("A").beats(combo("9"))
    assert combo("2 2").beats(combo("Q Q"))
    assert combo("J J J").beats(combo("10 10 10"))
    assert not combo("9 9").beats(combo("A"))


def test_equal_never_beats_equal():
    assert not combo("9").beats(combo("9"))
    assert not combo("8 8 8 8 8").beats(combo("8 8 8 8 8"))
    assert not combo("LJ LJ LJ BJ").beats(combo("LJ LJ LJ BJ"))


def test_a_bomb_beats_any_play_that_is_not_a_bomb():
    assert combo("3 3 3 3").beats(combo("BJ"))
    assert combo("3 3 3 3").beats(combo("LJ LJ LJ"))


def test_example_four_7s_beat_a_single_small_joker():
    assert combo("7 7 7 7").beats(combo("LJ"))


def test_example_five_queens_beat_five_eights():
    assert combo("Q Q Q Q Q").beats(combo("8 8 8 8 8"))


def test_example_seven_kings_beat_six_twos_more_cards_beat_a_higher_rank():
    assert combo("K K K K K K K").beats(combo("2 2 2 2 2 2"))
    assert not combo("2 2 2 2 2 2").beats(combo("K K K K K K K"))


def test_example_three_small_jokers_beat_222_but_lose_to_any_bomb():
    assert combo("LJ LJ LJ").beats(combo("2 2 2"))
    assert not combo("LJ LJ LJ").beats(combo("3 3 3 3"))
    assert combo("3 3 3 3").beats(combo("LJ LJ LJ"))


def test_example_four_kings_beat_2222_and_lose_to_33333():
    assert combo("LJ LJ LJ BJ").beats(combo("2 2 2 2"))
    assert combo("3 3 3 3 3").beats(combo("LJ LJ LJ BJ"))
    assert not combo("LJ LJ LJ BJ").beats(combo("3 3 3 3 3"))


def test_four_kings_cannot_beat_a_seven_card_dun():
    assert not combo("LJ LJ LJ BJ").beats(combo("3 3 3 3 3 3 3"))


def test_a_play_that_does_not_beat_is_refused_with_cannot_beat():
    hand = table("7777 3", "33333 4", "5", "6")
    play(hand, 0, "7777")
    assert refused_play(hand, 1, "4") == "cannot_beat"
    assert refused_play(hand, 1, "3333") == "cannot_beat"
    play(hand, 1, "33333")  # five beat four


def test_a_play_that_is_no_combination_is_refused_with_not_a_combination():
    hand = table("7 8 9", "4", "5", "6")
    assert refused_play(hand, 0, "789") == "not_a_combination"


def test_the_cannot_beat_message_names_both_plays():
    hand = table("33333 9", "7777 9", "5", "6")
    play(hand, 0, "33333")
    with pytest.raises(IllegalAction) as refusal:
        hand.apply(Action(1, "play", ranks=combo("7 7 7 7").ranks))
    assert refusal.value.message == "四个7 does not beat 五个3"
    assert refusal.value.facts["play"] == combo("7 7 7 7").rank_text()
