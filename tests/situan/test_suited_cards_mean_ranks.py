"""hand-record.md: in 四团 a card written with a suit means its rank: ``S7`` takes any 7 the
player holds; a play is ``not_in_hand`` only when the player holds too few of a rank."""

from __future__ import annotations

from engine.situan.events import Played
from tests.record_actions import Action
from tests.situan.helpers import cards, refused, table


def test_a_suited_card_not_held_takes_any_card_of_its_rank():
    hand = table("77 3", "5", "6", "8")  # seat 0 holds S7 H7 S3
    events = hand.apply(Action(0, "play", cards=cards("C7 D7")))
    played = next(e for e in events if isinstance(e, Played))
    assert sorted(c.text for c in played.cards) == ["H7", "S7"]
    assert [c.text for c in hand.cards_of(0)] == ["S3"]


def test_cards_held_exactly_are_the_cards_taken():
    hand = table("77 7", "5", "6", "8")  # S7 H7 C7
    events = hand.apply(Action(0, "play", cards=cards("C7")))
    played = next(e for e in events if isinstance(e, Played))
    assert [c.text for c in played.cards] == ["C7"]


def test_too_few_of_a_rank_is_not_in_hand_whatever_the_suits():
    hand = table("77 3", "5", "6", "8")
    assert refused(hand, Action(0, "play", cards=cards("S7 S7 S7"))) == "not_in_hand"
    assert refused(hand, Action(0, "play", cards=cards("H4"))) == "not_in_hand"


def test_a_suited_play_not_held_is_still_judged_as_a_combination():
    hand = table("77 3", "5", "6", "8")
    assert refused(hand, Action(0, "play", cards=cards("D7 H3"))) == "not_a_combination"
