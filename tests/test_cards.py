"""Card notation (hand-record.md: Card notation)."""

import pytest

from engine.cards import card, format_cards, parse_card, parse_cards, parse_rank_run
from engine.errors import RecordError


def test_a_card_is_suit_plus_rank_in_canonical_ascii():
    assert [c.text for c in parse_cards("S10 HA D7 C2 SJ")] == ["S10", "HA", "D7", "C2", "SJ"]


def test_sj_is_the_spade_jack_and_jokers_are_lj_and_bj():
    assert parse_card("SJ").suit == "S" and parse_card("SJ").rank == "J"
    assert parse_card("LJ").rank == "LJ" and parse_card("LJ").is_joker
    assert parse_card("BJ").rank == "BJ" and parse_card("BJ").suit == ""


def test_t_is_accepted_for_ten():
    assert parse_card("ST") is card("S10")


def test_parsers_accept_symbols_lower_case_and_chinese_joker_names():
    assert format_cards(parse_cards("♠10 ♥A ♣2 ♦k s10 hq lj bj 小王 大王")) == (
        "S10 HA C2 DK S10 HQ LJ BJ LJ BJ"
    )


def test_output_is_always_the_canonical_form():
    assert str(parse_card("♦t")) == "D10"


def test_cards_are_shared_immutable_values():
    assert parse_card("♠10") is parse_card("S10")
    with pytest.raises(AttributeError):
        card("S10").rank = "J"  # type: ignore[misc]


@pytest.mark.parametrize("token", ["X9", "S1", "S11", "H", "JJ", "Z", "小三", ""])
def test_an_unknown_token_is_an_error_that_names_the_token(token):
    with pytest.raises(RecordError) as error:
        parse_card(token)
    assert error.value.code == "unknown_card"
    assert repr(token) in error.value.message


def test_rank_only_runs_split_into_ranks():
    assert parse_rank_run("7777") == ["7"] * 4
    assert parse_rank_run("1010") == ["10", "10"]
    assert parse_rank_run("LJLJLJBJ") == ["LJ", "LJ", "LJ", "BJ"]
    assert parse_rank_run("小王大王") == ["LJ", "BJ"]
    assert parse_rank_run("qqk") == ["Q", "Q", "K"]


def test_a_bad_rank_run_names_the_token():
    with pytest.raises(RecordError) as error:
        parse_rank_run("77x7")
    assert "'77x7'" in error.value.message
