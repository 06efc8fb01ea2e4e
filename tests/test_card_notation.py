"""hand-record.md, Card notation: several cards written apart or together, one parser for
records and chat commands; Chinese suit words for trump."""

from __future__ import annotations

import pytest

from engine.actions import Bury, Play, action_from_json
from engine.cards import format_cards, parse_cards, parse_cards_or_ranks, parse_suit
from engine.errors import RecordError


@pytest.mark.parametrize(
    "written",
    [
        "S10 H10",
        ["S10 H10"],
        ["S10", "H10"],
        "S10H10",
        "♠10♥10",
        ["♠10♥10"],
        "s10h10",
        "S10,H10",
        "♠️10 ♥️10",
        "ST HT",
    ],
)
def test_several_cards_written_apart_or_together_are_the_same_cards(written):
    assert format_cards(parse_cards(written)) == "S10 H10"


def test_runs_mix_symbols_letters_jokers_and_lower_case():
    assert format_cards(parse_cards("♥10♠10")) == "H10 S10"
    assert format_cards(parse_cards("♦Q♦Q")) == "DQ DQ"
    assert format_cards(parse_cards("小王大王")) == "LJ BJ"
    assert format_cards(parse_cards("bjLJ sjHJ")) == "BJ LJ SJ HJ"
    assert format_cards(parse_cards(["dk♣2", "大王"])) == "DK C2 BJ"


@pytest.mark.parametrize("token", ["S10X5", "S99", "♥", "♦Q♦", "H1", "7777", "S10，Z"])
def test_an_unknown_token_in_a_run_is_an_error_naming_the_token(token):
    with pytest.raises(RecordError) as error:
        parse_cards(token)
    assert error.value.code == "unknown_card"
    assert error.value.facts["token"] in token and error.value.facts["token"] in error.value.message


def test_where_ranks_are_allowed_a_bare_rank_is_its_rank_and_a_card_stays_a_card():
    parsed = parse_cards_or_ranks("7777 S7 1010 LJ")
    assert parsed[:4] == ["7"] * 4 and parsed[5:7] == ["10", "10"]
    assert format_cards([parsed[4], parsed[7]]) == "S7 LJ"  # type: ignore[list-item]
    with pytest.raises(RecordError) as error:
        parse_cards_or_ranks("77x7")
    assert error.value.facts["token"] == "77x7"


def test_a_record_cards_string_holds_several_cards():
    play = action_from_json({"seat": 1, "act": "play", "cards": ["S10 H10"]})
    assert isinstance(play, Play) and format_cards(play.cards) == "S10 H10"
    play = action_from_json({"seat": 1, "act": "play", "cards": "♦Q♦Q"})
    assert isinstance(play, Play) and format_cards(play.cards) == "DQ DQ"
    bury = action_from_json({"seat": 0, "act": "bury", "cards": ["D3D4D6", "D8 D9", "C3C4C6"]})
    assert isinstance(bury, Bury) and len(bury.cards) == 8
    assert bury.to_json()["cards"] == ["D3", "D4", "D6", "D8", "D9", "C3", "C4", "C6"]


def test_in_situan_records_rank_runs_stay_a_play_by_ranks():
    play = action_from_json({"seat": 0, "act": "play", "cards": ["7777", "S7"]}, by_rank=True)
    assert isinstance(play, Play) and play.ranks == ("7",) * 5 and play.cards == ()
    exact = action_from_json({"seat": 0, "act": "play", "cards": ["S7H7"]}, by_rank=True)
    assert isinstance(exact, Play) and format_cards(exact.cards) == "S7 H7"


@pytest.mark.parametrize(
    ("text", "suit"),
    [
        ("黑桃", "S"),
        ("红桃", "H"),
        ("紅桃", "H"),
        ("梅花", "C"),
        ("方块", "D"),
        ("方塊", "D"),
        ("无主", "none"),
        ("無主", "none"),
        ("none", "none"),
        ("NONE", "none"),
        ("S", "S"),
        ("h", "H"),
        ("♣", "C"),
        ("♦️", "D"),
        (" ♠ ", "S"),
    ],
)
def test_a_trump_suit_is_read_in_letters_symbols_or_chinese_words(text, suit):
    assert parse_suit(text) == suit


@pytest.mark.parametrize("text", ["", "X", "红", "S7", "trumps"])
def test_anything_else_is_no_suit(text):
    assert parse_suit(text) is None


def test_an_amount_written_with_an_exponent_or_huge_is_refused_at_once():
    from engine import RecordError, game_of

    for value in ("1e10000000", "9" * 4300, "1/" + "7" * 5000, "nan", "inf"):
        try:
            game_of("situan").rules(dun_value=value)
        except RecordError as error:
            assert error.code == "bad_rules"
        else:
            raise AssertionError(f"{value[:20]} was accepted")
