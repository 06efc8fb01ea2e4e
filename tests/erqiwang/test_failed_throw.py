"""rules-erqiwang.md, Combinations: the option ``failed_throw`` — one test per sentence of its
paragraph, then the readings taken where it is silent (docs/readings.md)."""

import json
from collections import Counter

import pytest

from engine.erqiwang import ErqiwangHand, Rules
from engine.erqiwang.events import Played, ThrowFailed, TrickWon
from engine.erqiwang.record import record_of
from engine.errors import IllegalAction
from engine.replay import replay_record
from tests.erqiwang.helpers import cards, play, playing, refused_play, trick
from tests.record_actions import Action, outcome

SMALLEST = {"failed_throw": "smallest"}


def failed(events):
    return [e for e in events if isinstance(e, ThrowFailed)]


# "Option failed_throw decides what a throw that breaks the rule does: refuse (default): it is
# rejected with a clear reason and the player plays again; no penalty."


def test_refuse_is_the_default_of_every_preset():
    for preset in ("classic", "online", "proportional", "one_deck"):
        assert Rules.from_preset(preset).failed_throw == "refuse"


def test_refuse_rejects_the_throw_with_its_reason_and_changes_nothing():
    hand = playing("BJ BJ H3 S3", "D5 D6 D8 H4", "C5 C6 C8 LJ", "S4 S5 S6 H5")
    assert refused_play(hand, 0, "BJ BJ H3") == "throw_not_allowed"
    with pytest.raises(IllegalAction, match="H3"):
        hand.apply(Action(0, "play", cards=cards("BJ BJ H3")))
    play(hand, 0, "BJ BJ")  # the player plays again
    assert hand.turn == 1


# "smallest: the attempted throw is shown to all four players as failed, …"


def test_smallest_accepts_the_throw_as_failed_and_shows_what_was_tried():
    hand = playing("BJ BJ H3 S3", "D5 D6 D8 H4", "C5 C6 C8 LJ", "S4 S5 S6 H5", **SMALLEST)
    hand.check(Action(0, "play", cards=cards("BJ BJ H3")))  # no refusal: nothing is private
    events = play(hand, 0, "BJ BJ H3")
    assert failed(events) == [ThrowFailed(0, cards("BJ BJ H3"), cards("H3"))]
    assert Played(0, cards("H3")) in events
    assert events.index(failed(events)[0]) < events.index(Played(0, cards("H3")))


# "… and of its components that another player could beat, the lowest (by the follow order;
# among equal, the shortest) is played alone as the lead; …"


def test_the_lowest_of_the_beatable_components_is_led_alone():
    hand = playing(
        "BJ BJ H9 H3 S3", "HA D5 D6 D8 D9", "C5 C6 C8 C9 C10", "S4 S5 S6 S8 S9", **SMALLEST
    )
    events = play(hand, 0, "BJ BJ H9 H3")
    assert failed(events)[0].played == cards("H3")
    assert hand.trick == [(0, cards("H3"))] and hand.lead_shape.size == 1


def test_a_lower_component_nobody_can_beat_is_not_the_one_led():
    # The pair of 3s is lower, but nobody holds a trump pair; the single K falls to an ace.
    hand = playing("H3 H3 HK S3", "HA D5 D6 D8", "C5 C6 C8 C9", "S4 S5 S6 S8", **SMALLEST)
    events = play(hand, 0, "H3 H3 HK")
    assert failed(events)[0].played == cards("HK")


def test_a_beatable_tractor_is_led_whole_as_a_tractor():
    hand = playing(
        "H5 H5 H6 H6 HK", "H8 H8 H9 H9 D3", "C5 C6 C8 C9 C10", "S4 S5 S6 S8 S9", **SMALLEST
    )
    events = play(hand, 0, "H5 H5 H6 H6 HK")
    assert failed(events)[0].played == cards("H6 H6 H5 H5")
    assert hand.lead_shape.tractors and hand.lead_shape.size == 4


def test_among_equal_components_the_shortest_is_led():
    # Spades are trump: ♥7 ♥7 and ♦7 are all 副7, one level; ♠7 ♠7 beats both.
    hand = playing(
        "H7 H7 D7 H3", "S7 S7 D5 D6", "C5 C6 C8 C9", "S4 S5 S6 S8", trump="S", **SMALLEST
    )
    events = play(hand, 0, "H7 H7 D7")
    assert failed(events)[0].played == cards("D7")


def test_a_failed_throws_lead_is_followed_as_that_component():
    hand = playing(
        "BJ BJ H9 H3 S3", "HA D5 D6 D8 D9", "C5 C6 C8 C9 C10", "S4 S5 S6 S8 S9", **SMALLEST
    )
    play(hand, 0, "BJ BJ H9 H3")
    events = trick(hand, "HA", "C5", "S4")  # one card each: a single was led
    assert hand.turn == 1 and events[-1].seat == 1  # the ace won the 3


# "… the other cards stay in the hand; no points are lost (seed 001 "甩牌没有惩罚")."


def test_the_other_cards_of_the_throw_stay_in_the_hand():
    hand = playing(
        "BJ BJ H9 H3 S3", "HA D5 D6 D8 D9", "C5 C6 C8 C9 C10", "S4 S5 S6 S8 S9", **SMALLEST
    )
    play(hand, 0, "BJ BJ H9 H3")
    assert sorted(c.text for c in hand.hands[0]) == sorted(["BJ", "BJ", "H9", "S3"])


def test_no_points_are_lost_the_hand_ends_as_if_the_part_had_been_led():
    hands = ("BJ BJ H5 H3 SK", "HA D5 D10 DK D9", "C5 C6 C8 C9 C10", "S4 S5 S6 S8 S9")

    def finish(lead: str) -> tuple[dict, int]:
        hand = playing(*hands, **SMALLEST)
        events = play(hand, 0, lead)
        while not hand.over:  # the rest played the same way in both hands
            events += hand.apply(Action(hand.turn, "play", cards=hand.smallest_play(hand.turn)))
        won = sum(e.points for e in events if isinstance(e, TrickWon) and e.by_defenders)
        result = outcome(hand)
        assert result is not None
        return result, won

    thrown, won = finish("BJ BJ H5 H3")
    assert (thrown, won) == finish("H3")
    assert won > 0 and thrown["defender_points"] == won  # the tricks' points, nothing taken


# "This is how tractor games usually treat a failed throw, and it gives the thrower no private
# knowledge that the others lack."


def test_the_listed_throws_are_judged_from_what_the_thrower_can_see():
    # Nobody holds a pair of aces (seats 1 and 2 hold one each), so the throw is safe; but
    # the thrower cannot know that: under smallest it is not offered, under refuse it is.
    hands = ("H5 H5 BJ S3", "HA D5 D6 D8", "HA C6 C8 C9", "S4 S5 S6 S8")
    throw = cards("BJ H5 H5")

    def offered(hand: ErqiwangHand) -> bool:
        return any(Counter(p) == Counter(throw) for p in hand.legal_plays())

    assert offered(playing(*hands))
    sighted = playing(*hands, **SMALLEST)
    assert not offered(sighted)
    events = play(sighted, 0, "H5 H5 BJ")  # tried anyway, it is safe: a throw
    assert not failed(events) and sighted.lead_shape.components == 2


def test_a_listed_throw_under_smallest_never_fails():
    hand = playing("BJ BJ LJ S3", "D5 D6 D8 H3", "C5 C6 C8 H4", "S4 S5 S6 H5", **SMALLEST)
    throws = [p for p in hand.legal_plays() if len(p) > 2]
    assert throws
    assert not failed(play(hand, 0, " ".join(c.text for c in throws[0])))


# "A throw of side-suit cards, or any throw where throw is none, is still refused (a wrong lead,
# not a failed throw)."


def test_a_side_suit_throw_is_still_refused():
    hand = playing(
        "SA SA SQ SQ S3", "D5 D6 D8 D9 D10", "C5 C6 C8 C9 C10", "H3 H4 H5 H6 H8", **SMALLEST
    )
    assert refused_play(hand, 0, "SA SA SQ SQ") == "throw_not_allowed"
    assert refused_play(hand, 0, "SA SQ") == "throw_not_allowed"


def test_with_throw_none_every_throw_is_still_refused():
    hand = playing(
        "BJ BJ H3 S3", "D5 D6 D8 H4", "C5 C6 C8 LJ", "S4 S5 S6 H5", throw="none", **SMALLEST
    )
    assert refused_play(hand, 0, "BJ BJ H3") == "throw_not_allowed"


def test_a_lead_mixing_suits_is_still_not_a_combination():
    hand = playing("BJ BJ H3 S3", "D5 D6 D8 H4", "C5 C6 C8 LJ", "S4 S5 S6 H5", **SMALLEST)
    assert refused_play(hand, 0, "BJ S3") == "not_a_combination"


# Readings where the paragraph is silent (docs/readings.md).


def test_under_trump_when_others_void_the_lowest_beatable_component_is_led():
    hands = ("BJ H3 H4 S3", "D5 D6 D8 H9", "C5 C6 C8 C9", "S4 S5 S6 S8")
    hand = playing(*hands, preset="online", **SMALLEST)
    events = play(hand, 0, "BJ H3 H4")
    assert failed(events)[0].played == cards("H3")


def test_under_trump_when_others_void_with_nothing_beatable_the_lowest_component_is_led():
    # Seat 1 holds a trump, so the throw fails, though its low 2 beats none of the three.
    hands = ("BJ LJ HA S3", "D5 D6 D8 H3", "C5 C6 C8 C9", "S4 S5 S6 S8")
    hand = playing(*hands, preset="online", **SMALLEST)
    events = play(hand, 0, "BJ LJ HA")
    assert failed(events)[0].played == cards("HA")


def test_the_record_keeps_the_tried_cards_and_replays_the_failure():
    hand = ErqiwangHand.from_seed(Rules.from_preset("classic", **SMALLEST), seed=3)
    hand.apply(Action(0, "bid", points=80))
    for seat in (1, 2, 3):
        hand.apply(Action(seat, "pass"))
    hand.apply(Action(0, "trump", suit="H"))
    low = sorted(hand.hands[0], key=lambda c: hand.order.key[c])
    side = [c for c in low if hand.order.suit[c] != "trump"][:8]
    hand.apply(Action(0, "bury", cards=tuple(side)))
    trumps = sorted(hand.trump_held(0), key=lambda c: hand.order.key[c])
    tried = (trumps[0], trumps[-1])  # its lowest and highest trump: someone beats the low one
    events = hand.apply(Action(0, "play", cards=tried))
    assert failed(events), "the deal of seed 3 should make this throw fail"
    record = json.loads(json.dumps(record_of(hand)))
    assert record["rules"]["options"]["failed_throw"] == "smallest"
    assert record["actions"][-1]["cards"] == [c.text for c in tried]
    output = replay_record(record)
    assert all(v["ok"] for v in output["actions"])
    assert output["result"]["to_act"] == hand.to_act == 1
