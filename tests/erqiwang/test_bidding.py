"""rules-erqiwang.md: Bidding (叫分); Bottom, trump, burying, surrender."""

import pytest

from engine.erqiwang.events import BottomShown, DeclarerChosen, Redeal
from tests.erqiwang.helpers import cards, dealt, playing, refused
from tests.record_actions import Action, outcome

HANDS = ("S3 S4 S5", "H3 H4 H5", "C3 C4 C5", "D5 D10 DK")


def bidding(**options):
    return dealt(*HANDS, bottom="SA SK S10 S8 S9 SJ SQ S6", **options)


def test_players_bid_in_turn_from_the_first_bidder():
    hand = bidding(first=2)
    assert refused(hand, Action(0, "bid", points=100)) == "not_your_turn"
    hand.apply(Action(2, "bid", points=100))
    assert hand.turn == 3


@pytest.mark.parametrize("points", [103, 125, -5])
def test_each_bid_is_a_multiple_of_the_step_and_at_most_bid_max(points):
    hand = bidding()
    assert refused(hand, Action(0, "bid", points=points)) == "bid_not_allowed"


def test_each_bid_is_at_least_one_step_below_the_lowest_so_far():
    hand = bidding()
    hand.apply(Action(0, "bid", points=100))
    assert refused(hand, Action(1, "bid", points=100)) == "bid_not_allowed"
    assert refused(hand, Action(1, "bid", points=105)) == "bid_not_allowed"
    hand.apply(Action(1, "bid", points=95))


def test_a_bid_is_never_below_bid_min():
    hand = bidding(bid_min=30)
    assert refused(hand, Action(0, "bid", points=25)) == "bid_not_allowed"
    assert hand.allowed_bids()[-1] == 30


def test_a_bid_that_is_not_a_number_is_bad_action():
    assert refused(bidding(), Action(0, "bid", points="ninety")) == "bad_action"


def test_a_player_who_passes_bids_no_more_this_hand():
    hand = bidding()
    hand.apply(Action(0, "pass"))
    hand.apply(Action(1, "bid", points=100))
    hand.apply(Action(2, "bid", points=95))
    hand.apply(Action(3, "bid", points=90))
    assert hand.turn == 1  # seat 0 is skipped for good


def test_first_must_bid_the_first_bidder_may_not_pass():
    hand = bidding(first_must_bid=True)
    assert refused(hand, Action(0, "pass")) == "bid_not_allowed"
    hand.apply(Action(0, "bid", points=120))
    hand.apply(Action(1, "pass"))  # the others may pass


def test_bidding_ends_when_all_but_the_lowest_bidder_have_passed():
    hand = bidding()
    hand.apply(Action(0, "bid", points=100))
    hand.apply(Action(1, "pass"))
    hand.apply(Action(2, "bid", points=90))
    hand.apply(Action(3, "pass"))
    events = hand.apply(Action(0, "pass"))
    assert DeclarerChosen(2, 90) in events and hand.declarer == 2 and hand.bid == 90


def test_bidding_ends_at_once_when_a_bid_reaches_bid_min():
    hand = bidding()
    events = hand.apply(Action(0, "bid", points=0))
    assert DeclarerChosen(0, 0) in events


def test_if_everyone_passes_the_cards_are_dealt_again_with_the_same_first_bidder():
    hand = bidding(first=1)
    for seat in (1, 2, 3):
        hand.apply(Action(seat, "pass"))
    events = hand.apply(Action(0, "pass"))
    assert Redeal() in events and hand.over and outcome(hand) == {"redeal": True}


def test_the_declarer_takes_the_bottom_which_is_shown_to_all():
    hand = bidding()
    hand.apply(Action(0, "bid", points=100))
    events = [e for s in (1, 2, 3) for e in hand.apply(Action(s, "pass"))]
    shown = cards("SA SK S10 S8 S9 SJ SQ S6")
    assert BottomShown(0, shown) in events
    assert len(hand.hands[0]) == 11
    assert hand.view(2).bottom_shown == shown and hand.view(None).bottom_shown == shown


def test_the_declarer_names_trump_then_buries_eight_cards_unseen_by_the_others():
    hand = bidding()
    hand.apply(Action(0, "bid", points=100))
    for seat in (1, 2, 3):
        hand.apply(Action(seat, "pass"))
    assert refused(hand, Action(0, "bury", cards=cards("SA SK S10 S8 S9 SJ SQ S6"))) == (
        "wrong_phase"
    )
    hand.apply(Action(0, "trump", suit="S"))
    assert refused(hand, Action(0, "bury", cards=cards("SA SK"))) == "wrong_count"
    assert refused(hand, Action(0, "bury", cards=cards("HA HA H3 H4 H5 H6 H8 H9"))) == (
        "not_in_hand"
    )
    hand.apply(Action(0, "bury", cards=cards("S3 S4 S5 S8 S9 SJ SQ S6")))
    assert hand.view(0).buried == cards("S3 S4 S5 S8 S9 SJ SQ S6")
    assert hand.view(1).buried == () and hand.view(None).buried == ()


def test_the_trump_may_be_named_without_holding_a_7():
    hand = playing("S3 S4", "H3 H4", "C3 C4", "D5 D6", trump="D")
    assert hand.trump == "D"


def test_no_trump_is_named_with_none_where_allowed_and_is_bad_action_elsewhere():
    hand = playing("S3 S4", "H3 H4", "C3 C4", "D5 D6", trump="none")
    assert hand.trump is None and hand.trump_named
    online = dealt(*HANDS, preset="online")
    online.apply(Action(0, "bid", points=80))
    for seat in (1, 2, 3):
        online.apply(Action(seat, "pass"))
    assert refused(online, Action(0, "trump", suit="none")) == "bad_action"


def test_surrender_is_allowed_when_the_bid_is_above_surrender_above():
    hand = bidding()
    hand.apply(Action(0, "bid", points=85))
    for seat in (1, 2, 3):
        hand.apply(Action(seat, "pass"))
    hand.apply(Action(0, "surrender"))
    assert hand.over and outcome(hand) is not None and outcome(hand)["surrendered"]


def test_surrender_is_refused_at_or_below_surrender_above():
    hand = bidding()
    hand.apply(Action(0, "bid", points=80))
    for seat in (1, 2, 3):
        hand.apply(Action(seat, "pass"))
    assert refused(hand, Action(0, "surrender")) == "surrender_not_allowed"


def test_surrender_is_possible_until_the_first_card_is_played():
    hand = playing("S3 S4", "S5 S6", "S8 S9", "SJ SQ", bid=100)
    play_ok = hand.apply(Action(0, "play", cards=cards("S3")))
    assert play_ok
    assert refused(hand, Action(0, "surrender")) == "wrong_phase"


def test_only_the_declarer_may_surrender():
    hand = playing("S3 S4", "S5 S6", "S8 S9", "SJ SQ", bid=100)
    assert refused(hand, Action(1, "surrender")) == "not_your_turn"


def test_surrender_counts_as_losing_as_if_the_defenders_had_scored_the_bid():
    hand = playing("S3 S4", "S5 S6", "S8 S9", "SJ SQ", bid=100)
    hand.apply(Action(0, "surrender"))
    result = outcome(hand)
    assert result is not None and result["defender_points"] == 100
    assert not result["declarer_won"] and result["stakes"] == ["-3", "1", "1", "1"]


def test_the_first_bidder_of_the_first_hand_is_an_option_seat0_or_random():
    from engine.erqiwang import Rules

    assert Rules.from_preset("classic").first_bidder == "seat0"
    assert Rules.from_preset("online").first_bidder == "random"


def test_later_hands_the_declarer_bids_first_again_if_it_did_not_lose():
    from engine.erqiwang.series import next_first_bidder

    assert next_first_bidder({"declarer": 2, "declarer_won": True}, first=0) == 2
    assert next_first_bidder({"declarer": 3, "declarer_won": False}, first=0) == 0
    assert next_first_bidder({"redeal": True}, first=1) == 1
