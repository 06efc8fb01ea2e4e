"""rules-erqiwang.md: Auto-play (托管) and time-outs; Presets; what a seat may know."""

import pytest

from engine.erqiwang import ErqiwangHand, Rules
from engine.erqiwang.events import AutoChanged, BonusDeclared, TimedOut
from engine.erqiwang.views import ErqiwangView
from engine.errors import RecordError
from tests.erqiwang.helpers import FILLER_BOTTOM, cards, dealt, play, playing, refused
from tests.record_actions import Action


def test_on_a_time_out_in_the_bidding_the_player_passes_where_allowed():
    hand = dealt("S3", "S4", "S5", "S6")
    events = hand.apply(Action(0, "timeout"))
    assert TimedOut(0, 1) in events and hand.passed[0]


def test_on_a_time_out_the_first_bidder_who_must_bid_makes_the_highest_allowed_bid():
    hand = dealt("S3", "S4", "S5", "S6", first_must_bid=True)
    hand.apply(Action(0, "timeout"))
    assert hand.bids == [(0, 120)]


def test_auto_trump_is_the_suit_with_most_cards_counting_its_7s_and_2s():
    hand = dealt("S3 S4 D7 D2 D5", "S6", "S8", "S9", bottom="D3 C3 C4 C5 H3 H4 H5 D6")
    hand.apply(Action(0, "bid", points=100))
    for seat in (1, 2, 3):
        hand.apply(Action(seat, "pass"))
    hand.apply(Action(0, "timeout"))
    assert hand.trump == "D"  # ♦: 7, 2, 5, 3, 6 — five cards against three of ♣ and ♥


def test_auto_trump_ties_go_spades_hearts_clubs_diamonds():
    hand = dealt("S3 H3 C3 D3", "S6", "S8", "S9", bottom="S4 H4 C4 D4 S5 H5 C5 D5")
    hand.apply(Action(0, "bid", points=100))
    for seat in (1, 2, 3):
        hand.apply(Action(seat, "pass"))
    hand.apply(Action(0, "timeout"))
    assert hand.trump == "S"


def test_auto_bury_buries_the_eight_lowest_cards():
    hand = dealt("BJ SA S3 S4", "S6", "S8", "S9", bottom="H3 D4 D5 D6 C8 C9 CK CA")
    hand.apply(Action(0, "bid", points=100))
    for seat in (1, 2, 3):
        hand.apply(Action(seat, "pass"))
    hand.apply(Action(0, "trump", suit="H"))
    hand.apply(Action(0, "timeout"))
    assert sorted(c.text for c in hand.buried) == sorted(
        ["S3", "S4", "D4", "D5", "D6", "C8", "C9", "CK"]
    )


def test_the_smallest_legal_lead_is_the_lowest_single():
    hand = playing("BJ SA D3 D3 S9", "S5 S6 S8 S10 SJ", "C3 C4 C5 C6 C8", "D4 D5 D6 D8 D9")
    hand.apply(Action(0, "timeout"))
    assert hand.trick == [(0, cards("D3"))]


def test_the_smallest_legal_follow_prefers_side_cards_then_lowest_level_then_diamonds():
    hand = playing("SA S3", "H3 C9", "D9 C10", "S4 S5")
    play(hand, 0, "SA")
    hand.apply(Action(1, "timeout"))  # void in spades: C9 is lower than the trump H3
    assert hand.trick[-1] == (1, cards("C9"))
    hand.apply(Action(2, "timeout"))  # D9 and C10: the 9 is lower
    assert hand.trick[-1] == (2, cards("D9"))


def test_ties_in_the_smallest_play_go_to_diamonds_before_clubs():
    hand = playing("SA S3", "C9 D9", "S6 S8", "S4 S5")
    play(hand, 0, "SA")
    hand.apply(Action(1, "timeout"))
    assert hand.trick[-1] == (1, cards("D9"))


def test_the_smallest_legal_follow_keeps_to_the_shape_rule():
    hand = playing("S3 S3 D4", "SK SK S5 D5", "S8 S9 C3 C4", "SJ SQ C5 C6")
    play(hand, 0, "S3 S3")
    hand.apply(Action(1, "timeout"))
    assert hand.trick[-1] == (1, cards("SK SK"))  # the pair it must play


def test_a_time_out_declares_the_bonus_automatically():
    hand = playing("S3 S4", "BJ LJ LJ S9 S10", "S8 S5", "SJ SQ")
    play(hand, 0, "S3")
    events = hand.apply(Action(1, "timeout"))
    assert any(isinstance(e, BonusDeclared) and e.seat == 1 for e in events)


def test_three_time_outs_put_the_player_on_tuoguan_until_they_act_again():
    hand = playing("SA SK SQ SJ", "S3 S4 S5 S6", "S8 S9 S10 D3", "C3 C4 C5 C6")
    for n in (1, 2, 3):
        events = hand.apply(Action(0, "timeout"))  # seat 0 leads its lowest spade and wins
        for seat in (1, 2, 3):
            hand.apply(Action(seat, "play", cards=hand.legal_plays()[0]))
        assert (AutoChanged(0, True) in events) == (n == 3)
        assert hand.turn == 0
    assert hand.auto[0] and hand.timeouts[0] == 3
    events = play(hand, 0, "SA")
    assert AutoChanged(0, False) in events


def test_tuoguan_ends_with_the_players_own_action():
    hand = playing("S3 S4", "SA SK", "S8 S9", "SJ SQ")
    hand.apply(Action(0, "auto", on=True))
    events = play(hand, 0, "S3")
    assert AutoChanged(0, False) in events


def test_only_the_seat_to_act_can_time_out():
    hand = playing("S3 S4", "SA SK", "S8 S9", "SJ SQ")
    assert refused(hand, Action(2, "timeout")) == "not_your_turn"


def test_bury_seconds_is_60_and_30_in_the_online_preset():
    assert Rules.from_preset("classic").bury_seconds == 60
    assert Rules.from_preset("online").bury_seconds == 30


@pytest.mark.parametrize(
    ("preset", "values"),
    [
        ("classic", (120, False, True, "trump_if_unbeatable", 80, "tiered", "seat0")),
        ("online", (80, True, False, "trump_when_others_void", 80, "online", "random")),
        ("proportional", (120, False, True, "trump_if_unbeatable", 80, "proportional", "seat0")),
    ],
)
def test_presets_table(preset, values):
    rules = Rules.from_preset(preset)
    assert (
        rules.bid_max,
        rules.first_must_bid,
        rules.allow_no_trump,
        rules.throw,
        rules.surrender_above,
        rules.scoring,
        rules.first_bidder,
    ) == values
    assert (rules.bid_step, rules.bid_min, rules.bottom_needs_trump) == (5, 0, True)
    assert (rules.bottom_multiplier, rules.turn_seconds) == ("by_cards", 60)


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("bid_max", 100),
        ("bid_step", 10),
        ("bid_min", 20),
        ("first_must_bid", True),
        ("allow_no_trump", False),
        ("throw", "none"),
        ("surrender_above", 60),
        ("scoring", "online"),
        ("first_bidder", "random"),
        ("bottom_needs_trump", False),
        ("bottom_multiplier", "doubling"),
        ("turn_seconds", 45),
        ("bury_seconds", 20),
    ],
)
def test_every_option_can_be_set_one_by_one(option, value):
    assert getattr(Rules.from_preset("classic", **{option: value}), option) == value


@pytest.mark.parametrize(
    "options", [{"throw": "always"}, {"bid_step": 7}, {"colour": 1}, {"bid_min": 150}]
)
def test_bad_options_are_bad_rules(options):
    with pytest.raises(RecordError) as error:
        Rules.from_preset("classic", **options)
    assert error.value.code == "bad_rules"


def test_a_seats_view_holds_only_its_own_hand():
    hand = ErqiwangHand.from_seed(Rules.from_preset(), 3)
    view = hand.view(2)
    assert sorted(view.hand, key=lambda c: c.text) == sorted(hand.hands[2], key=lambda c: c.text)
    assert view.bottom_shown == () and view.buried == ()
    assert hand.view(None).hand == ()


def test_seat_views_share_the_public_view_of_the_same_moment_and_no_later_one():
    hand = playing("S3", "SA", "S8", "SJ")
    public, declarer_view = hand.view(None), hand.view(0)
    private = {"seat", "hand", "buried"}
    for name in set(ErqiwangView.__slots__) - private:
        assert getattr(declarer_view, name) is getattr(public, name), name
    assert public.buried == () and hand.view(None) is public
    play(hand, 0, "S3")
    later = hand.view(None)
    assert later is not public and later.trick != public.trick and later.to_act == 1
    assert hand.view(0).hand == () and hand.view(1).hand == cards("SA")


def test_the_buried_cards_are_seen_by_the_declarer_only_until_the_hand_is_over():
    hand = playing("S3", "SA", "S8", "SJ")
    assert hand.view(0).buried == cards(FILLER_BOTTOM)
    assert hand.view(1).buried == ()
    play(hand, 0, "S3")
    play(hand, 1, "SA")
    play(hand, 2, "S8")
    play(hand, 3, "SJ")
    assert hand.over and hand.view(1).buried == cards(FILLER_BOTTOM)
