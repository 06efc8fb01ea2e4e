"""rules-situan.md: End of a hand (双关, three out, decided early) and carry-over."""

from engine.situan.events import HandEnded
from tests.record_actions import outcome
from tests.situan.helpers import play, script, table

K12 = " ".join(["K"] * 12)
T12 = " ".join(["10"] * 12)
T4 = "10 10 10 10"


def counted_hand(**options):
    """Seat 0 takes 160 in two bombs and goes out first; seats 1 and 2 follow; seat 3 is 4游,
    having captured 10 and still holding 10 points."""
    hand = table(f"{K12} {T4} 3", "4 J", "6 Q A", "10 10 5 9 8", bottom="5 5 10 K", **options)
    script(hand, f"0:{K12}; 1:pass; 2:pass; 3:pass; 0:{T4}; 1:pass; 2:pass; 3:pass")
    script(hand, "0:3; 1:4; 2:6; 3:10; 1:pass; 2:pass")  # seat 3 takes 10
    script(hand, "3:5; 1:J; 2:Q; 3:pass")  # seat 1 is out (2游); seat 2 takes 5
    script(hand, "2:A")  # seat 2 is out (3游): three are out
    return hand


def test_double_both_players_of_a_team_out_while_both_opponents_hold_cards_wins():
    hand = table("3", "4 4", "5", "6 6")
    script(hand, "0:3; 1:4; 2:5")
    result = outcome(hand)
    assert result is not None
    assert result["ended_by"] == "double" and result["winner"] == "A"
    assert result["finish"] == [0, 2, 1, 3]


def test_no_double_when_an_opponent_is_already_out():
    hand = table("3", "4", "5", "6 6", early_end=False)
    script(hand, "0:3; 1:4; 2:5")  # A both out, but B's seat 1 went out before
    assert outcome(hand) is not None and outcome(hand)["ended_by"] == "points"


def test_three_out_upper_takes_own_plus_the_fourths_captured_plus_the_bottom():
    hand = counted_hand(early_end=False)
    result = outcome(hand)
    assert result is not None and result["ended_by"] == "points"
    assert result["finish"] == [0, 1, 2, 3]
    assert result["captured"] == [160, 0, 5, 10]
    # A: 上游 160 + 4游's 10 + bottom 30; 3游 5; the 4游's 10 in hand go to A.
    assert result["team_points"] == {"A": 215, "B": 0}


def test_a_team_with_at_least_200_wins():
    result = outcome(counted_hand(early_end=False))
    assert result is not None and result["winner"] == "A"
    assert result["stakes"] == ["1", "-1", "1", "-1"]


def test_the_fourths_hand_points_go_to_the_team_opposing_the_fourth():
    hand = table("3", "4 J", "6 Q A", "10 10 5 9 8", early_end=False)
    script(hand, "0:3; 1:4; 2:6; 3:9; 1:J")  # seats 0 and 1 out
    script(hand, "2:Q; 3:pass")  # seat 2 takes the round
    script(hand, "2:A")  # seat 2 out: seat 3 keeps 10 10 5
    result = outcome(hand)
    assert result is not None and result["finish"] == [0, 1, 2, 3]
    assert result["team_points"] == {"A": 25, "B": 0}


def test_neither_team_at_200_carries_the_hand_over_with_both_totals():
    hand = table("3", "4 J", "6 Q A", "10 10 5 9 8", early_end=False)
    script(hand, "0:3; 1:4; 2:6; 3:9; 1:J; 2:Q; 3:pass; 2:A")
    result = outcome(hand)
    assert result is not None and result["winner"] is None
    assert result["carry"] == {"A": 25, "B": 0}
    assert result["stakes"] == ["0", "0", "0", "0"]


def test_a_carried_over_hand_is_won_by_the_higher_total_of_both_hands():
    hand = counted_hand(early_end=False, carry=(100, 200))
    result = outcome(hand)
    assert result is not None
    assert result["team_points"] == {"A": 215, "B": 0}  # this hand; 315 against 200 in all
    assert result["winner"] == "A" and "carry" not in result


def test_a_carried_over_hand_below_200_can_still_win_on_the_total():
    hand = table("3", "4 J", "6 Q A", "10 10 5 9 8", early_end=False, carry=(150, 160))
    script(hand, "0:3; 1:4; 2:6; 3:9; 1:J; 2:Q; 3:pass; 2:A")
    assert outcome(hand) is not None and outcome(hand)["winner"] == "A"  # 175 against 160


def test_equal_totals_after_a_carried_over_hand_carry_over_again():
    hand = counted_hand(early_end=False, carry=(100, 315))
    result = outcome(hand)
    assert result is not None and result["winner"] is None
    assert result["carry"] == {"A": 315, "B": 315}


def test_a_double_in_a_carried_over_hand_decides_the_series_at_once():
    hand = table("3", "4 4", "5", "6 6", carry=(150, 190))
    script(hand, "0:3; 1:4; 2:5")
    assert outcome(hand) is not None and outcome(hand)["winner"] == "A"
    assert outcome(hand)["stakes"] == ["1", "-1", "1", "-1"]


def test_decided_early_example_first_out_with_200_captured_wins_at_once():
    hand = table(f"{K12} {T12} 3", "4 4", "5 5", "6 6")
    script(hand, f"0:{K12}; 1:pass; 2:pass; 3:pass; 0:{T12}; 1:pass; 2:pass; 3:pass")
    events = play(hand, 0, "3")
    assert isinstance(events[-1], HandEnded)
    result = outcome(hand)
    assert result is not None and result["ended_by"] == "decided" and result["winner"] == "A"
    assert result["team_points"] == {"A": 240, "B": 0}
    assert result["finish"] == [0, 1, 2, 3]


def test_decided_early_counter_example_first_out_is_an_opponent_so_it_goes_on():
    hand = table(f"{K12} {T12} 3 4", "5", "6 6", "7 7")
    script(hand, f"0:{K12}; 1:pass; 2:pass; 3:pass; 0:{T12}; 1:pass; 2:pass; 3:pass")
    script(hand, "0:3; 1:5")  # seat 1 (team B) goes out first
    assert not hand.over  # seat 0's 240 would go to seat 1 if seat 0 ended 4th


def test_decided_early_can_happen_when_a_round_is_captured():
    hand = table(f"{K12} 4", "6 7", f"{T12} 5", "8 9")
    script(hand, f"0:{K12}; 1:pass; 2:pass; 3:pass; 0:4; 1:pass; 2:pass; 3:pass")
    assert not hand.over and hand.turn == 1  # A has 120 so far
    script(hand, f"1:6; 2:{T12}; 3:pass; 1:pass")
    result = outcome(hand)
    assert result is not None and result["ended_by"] == "decided" and result["winner"] == "A"


def test_early_end_off_plays_on_when_the_winner_is_already_known():
    hand = table(f"{K12} {T12} 3", "4 4", "5 5", "6 6", early_end=False)
    script(hand, f"0:{K12}; 1:pass; 2:pass; 3:pass; 0:{T12}; 1:pass; 2:pass; 3:pass; 0:3")
    assert not hand.over


def test_when_the_hand_ends_with_a_round_open_its_points_go_to_the_last_player():
    hand = table("3 K", "4 4", "K", "6 6")
    script(hand, "0:3; 1:4; 2:K")  # seat 2 plays K over 4 and is out
    script(hand, "3:pass; 0:pass; 1:pass")  # seat 2 takes 10
    script(hand, "3:6; 0:K")  # seat 0 goes out on an open round worth 10: 双关
    result = outcome(hand)
    assert result is not None and result["ended_by"] == "double"
    assert result["captured"] == [10, 0, 10, 0]
    assert hand.round_combo is not None  # no one answered the last play


def test_the_next_hand_is_led_by_the_first_out_and_carries_the_totals_when_undecided():
    from engine.situan.series import next_carry, next_leader

    hand = table("3", "4 J", "6 Q A", "10 10 5 9 8", early_end=False, first=0)
    script(hand, "0:3; 1:4; 2:6; 3:9; 1:J; 2:Q; 3:pass; 2:A")
    assert outcome(hand) is not None
    assert next_leader(hand.result) == 0 and next_carry(hand.result) == (25, 0)
    decided = counted_hand(early_end=False).result
    assert decided is not None and next_carry(decided) is None
