"""rules-erqiwang.md: Announcements; Last trick and bottom (抓底); Settlement."""

from fractions import Fraction

import pytest

from engine.erqiwang.events import TrumpCounts, TrumpVoid
from engine.erqiwang.settlement import online, proportional, small_sweep_limit, tiered
from tests.erqiwang.helpers import playing, trick
from tests.record_actions import outcome

BOTTOM_25 = "SK S10 S5 D3 D4 D6 D8 D9"  # 25 points, buried back


def test_a_player_holding_no_trump_any_more_is_announced_wu_zhu():
    hand = playing("S3 S4", "H3 D5", "S8 S9", "SJ SQ")
    events = trick(hand, "S3", "H3", "S8", "SJ")
    assert TrumpVoid(1) in events
    assert hand.view(0).void[1]


def test_with_two_players_void_the_others_trump_count_and_pair_are_announced_and_kept_current():
    hand = playing("S3 H4 H4", "H3 D5 D6", "S8 S9 S10", "SJ SQ SK")
    assert hand.void_announced[2] and hand.void_announced[3]
    events = trick(hand, "S3", "H3", "S8", "SJ")  # seat 1 becomes void: 1, 2, 3 void
    counts = [e for e in events if isinstance(e, TrumpCounts)]
    assert counts and counts[-1].counts == ((0, 2, True),)


def test_defenders_winning_the_last_trick_with_trumps_take_the_bottom_times_by_cards():
    hand = playing("S3 S4", "SA H3", "S8 S9", "SJ SQ", bottom=BOTTOM_25, bury=BOTTOM_25)
    trick(hand, "S3", "SA", "S8", "SJ")  # seat 1 wins, leads the last trick
    trick(hand, "H3", "S9", "SQ", "S4")
    result = outcome(hand)
    assert result is not None
    assert result["last_trick_winner"] == 1 and result["bottom_multiplier"] == 1
    assert result["bottom_points"] == 25 and result["defender_points"] == 25


def test_a_pair_taking_the_last_trick_doubles_the_bottom():
    hand = playing("S3 S4 S4", "SA H3 H3", "S8 S9 S9", "SJ SQ SQ", bottom=BOTTOM_25, bury=BOTTOM_25)
    trick(hand, "S3", "SA", "S8", "SJ")
    trick(hand, "H3 H3", "S9 S9", "SQ SQ", "S4 S4")
    result = outcome(hand)
    assert result is not None and result["bottom_multiplier"] == 2
    assert result["defender_points"] == 50


@pytest.mark.parametrize(("rule", "expected"), [("by_cards", 4), ("doubling", 4)])
def test_a_two_pair_tractor_taking_the_last_trick_multiplies_by_four(rule, expected):
    hand = playing(
        "S3 S4 S4 S5 S5",
        "SA H3 H3 H4 H4",
        "S8 S9 S9 SJ SJ",
        "SJ SQ SQ SK SK",
        bottom=BOTTOM_25,
        bury=BOTTOM_25,
        bottom_multiplier=rule,
    )
    trick(hand, "S3", "SA", "S8", "SJ")
    trick(hand, "H3 H3 H4 H4", "S9 S9 SJ SJ", "SQ SQ SK SK", "S4 S4 S5 S5")
    assert outcome(hand) is not None and outcome(hand)["bottom_multiplier"] == expected


def test_doubling_a_three_pair_tractor_multiplies_by_eight_by_cards_by_six():
    for rule, expected in (("doubling", 8), ("by_cards", 6)):
        hand = playing(
            "S3 S4 S4 S5 S5 S6 S6",
            "SA H3 H3 H4 H4 H5 H5",
            "S8 S9 S9 SJ SJ SQ SQ",
            "SJ SK SK SA SA S10 S10",
            bottom=BOTTOM_25,
            bury=BOTTOM_25,
            bottom_multiplier=rule,
        )
        trick(hand, "S3", "SA", "S8", "SJ")
        trick(
            hand,
            "H3 H3 H4 H4 H5 H5",
            "S9 S9 SJ SJ SQ SQ",
            "SK SK SA SA S10 S10",
            "S4 S4 S5 S5 S6 S6",
        )
        assert outcome(hand) is not None and outcome(hand)["bottom_multiplier"] == expected


def test_a_side_card_taking_the_last_trick_does_not_take_the_bottom():
    hand = playing("S3 S4", "SA SK", "S8 S9", "SJ SQ", bottom=BOTTOM_25, bury=BOTTOM_25)
    trick(hand, "S3", "SA", "S8", "SJ")
    trick(hand, "SK", "S9", "SQ", "S4")  # seat 1 wins the last trick with a side card
    result = outcome(hand)
    assert result is not None and result["bottom_multiplier"] == 0
    assert result["defender_points"] == 10  # the SK of the last trick, not the bottom


def test_bottom_needs_trump_off_lets_a_side_card_take_the_bottom():
    hand = playing(
        "S3 S4",
        "SA SK",
        "S8 S9",
        "SJ SQ",
        bottom=BOTTOM_25,
        bury=BOTTOM_25,
        bottom_needs_trump=False,
    )
    trick(hand, "S3", "SA", "S8", "SJ")
    trick(hand, "SK", "S9", "SQ", "S4")
    assert outcome(hand) is not None and outcome(hand)["bottom_multiplier"] == 1


def test_the_declarer_winning_the_last_trick_keeps_the_bottom():
    hand = playing("S3 H4", "SA S4", "S8 S9", "SJ SQ", bottom=BOTTOM_25, bury=BOTTOM_25)
    trick(hand, "S3", "SA", "S8", "SJ")
    trick(hand, "S4", "S9", "SQ", "H4")  # the declarer ruffs the last trick
    result = outcome(hand)
    assert result is not None and result["bottom_multiplier"] == 0
    assert result["last_trick_winner"] == 0


def test_defenders_win_iff_their_points_reach_the_bid():
    hand = playing("S3 S4", "SA SK", "S10 S9", "SJ SQ", bid=20)
    trick(hand, "S3", "SA", "S10", "SJ")
    trick(hand, "SK", "S9", "SQ", "S4")
    assert outcome(hand) is not None and outcome(hand)["defender_points"] == 20
    assert outcome(hand)["declarer_won"] is False
    short = playing("S3 S4", "SA SK", "S10 S9", "SJ SQ", bid=25)
    trick(short, "S3", "SA", "S10", "SJ")
    trick(short, "SK", "S9", "SQ", "S4")
    assert outcome(short) is not None and outcome(short)["declarer_won"] is True


def test_a_bid_of_0_is_lost_to_any_points_at_all():
    hand = playing("S3 S4", "SA S5", "S8 S9", "SJ SQ", bid=0)
    trick(hand, "S3", "SA", "S8", "SJ")
    trick(hand, "S5", "S9", "SQ", "S4")
    assert outcome(hand) is not None and outcome(hand)["defender_points"] == 5
    assert outcome(hand)["declarer_won"] is False


@pytest.mark.parametrize(
    ("points", "amount"),
    [(80, -6), (120, -12), (180, -18), (200, -24), (75, 6), (35, 12), (0, 18)],
)
def test_tiered_seed_examples_for_a_bid_of_80(points, amount):
    assert tiered(80, points) == amount


@pytest.mark.parametrize(
    ("bid", "multiplier"), [(120, 1), (85, 1), (80, 2), (45, 2), (40, 4), (5, 4), (0, 8)]
)
def test_tiered_bid_multipliers(bid, multiplier):
    points = bid + 5 if bid else 5
    assert tiered(bid, points) == -3 * multiplier


def test_tiered_at_bid_40_doubles_the_bid_80_amounts():
    assert tiered(40, 40) == 2 * tiered(80, 80)


@pytest.mark.parametrize(("points", "per_defender"), [(100, 4), (140, 6)])
def test_online_seed_examples_bid_60(points, per_defender):
    assert -online(60, points) / 3 == per_defender


def test_online_small_sweep_thresholds():
    assert small_sweep_limit(60) == 30 and small_sweep_limit(55) == 30
    assert small_sweep_limit(65) == 40 and small_sweep_limit(80) == 40


def test_online_declarer_wins_m_times_sweeps():
    assert online(80, 45) == 3  # m 1, no sweep
    assert online(80, 40) == 6  # 小光
    assert online(80, 0) == 12  # 大光
    assert online(60, 30) == 12  # m 2, 小光 at 30
    assert online(40, 25) == 12  # m 4


def test_online_losing_adds_m_for_every_full_20_above_a_bid_of_40_or_less():
    assert -online(40, 80) / 3 == 4 * 3


def test_proportional_declarer_wins_three_fifths_of_200_minus_bid():
    assert proportional(80, 40) == Fraction(3 * 120, 5)


def test_proportional_declarer_loses_three_fifths_of_the_points():
    assert proportional(80, 95) == -57


def test_each_defender_gets_the_opposite_of_a_third_of_the_declarers_amount():
    hand = playing("S3 S4", "SA SK", "S10 S9", "SJ SQ", bid=20)
    trick(hand, "S3", "SA", "S10", "SJ")
    trick(hand, "SK", "S9", "SQ", "S4")
    result = outcome(hand)
    assert result is not None and result["stakes"] == ["-12", "4", "4", "4"]  # bid 20: m = 4


def test_settlement_amounts_are_exact_and_sum_to_zero():
    hand = playing("S3 S4", "SA SK", "S10 S9", "SJ SQ", bid=25, scoring="proportional")
    trick(hand, "S3", "SA", "S10", "SJ")
    trick(hand, "SK", "S9", "SQ", "S4")
    result = outcome(hand)
    assert result is not None and result["stakes"] == ["105", "-35", "-35", "-35"]
    assert sum(Fraction(x) for x in result["total"]) == 0
