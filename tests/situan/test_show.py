"""rules-situan.md: 亮牌 (show hand)."""

from engine.situan.events import HandRevealed, ShowStarted
from tests.record_actions import Action, outcome
from tests.situan.helpers import cards, play, refused, script, table


def started(**options):
    hand = table("3 4 5", "6 7 8", "9 10 J", "Q K A", **options)
    return hand


def test_any_player_holding_cards_may_start_a_show_at_any_time_even_out_of_turn():
    hand = started()
    events = hand.apply(Action(1, "show_start"))  # seat 0 is to play
    assert ShowStarted(1, 3) in events


def test_a_player_who_is_out_may_not_start_a_show():
    hand = table("3", "6 7", "9 10", "Q K")
    play(hand, 0, "3")
    assert refused(hand, Action(0, "show_start")) == "show_not_allowed"


def test_only_one_show_per_hand():
    hand = started()
    hand.apply(Action(0, "show_start"))
    hand.apply(Action(0, "show_pick", reveal=0))
    assert refused(hand, Action(1, "show_start")) == "show_not_allowed"


def test_the_initiator_and_the_partner_privately_see_each_others_whole_hand():
    hand = started()
    hand.apply(Action(1, "show_start"))
    assert hand.view(1).show_seen == {3: cards("SQ SK SA")}
    assert hand.view(3).show_seen == {1: cards("S6 S7 S8")}
    assert hand.view(0).show_seen == {} and hand.view(2).show_seen == {}
    assert hand.view(None).show_seen == {}


def test_play_waits_for_the_initiators_choice():
    hand = started()
    hand.apply(Action(2, "show_start"))
    assert refused(hand, Action(0, "play", cards=cards("S3"))) == "wrong_phase"
    assert refused(hand, Action(0, "show_pick", reveal=0)) == "not_your_turn"


def test_the_initiator_chooses_which_of_the_two_hands_is_revealed():
    hand = started()
    hand.apply(Action(2, "show_start"))
    events = hand.apply(Action(2, "show_pick", reveal=0))
    assert HandRevealed(0, cards("S3 S4 S5")) in events
    assert hand.revealed == 0


def test_only_the_initiators_or_the_partners_hand_can_be_revealed():
    hand = started()
    hand.apply(Action(2, "show_start"))
    assert refused(hand, Action(2, "show_pick", reveal=1)) == "show_not_allowed"


def test_on_a_time_out_the_initiators_own_hand_is_revealed():
    hand = started()
    hand.apply(Action(3, "show_start"))
    assert refused(hand, Action(0, "timeout")) == "not_your_turn"
    hand.apply(Action(3, "timeout"))
    assert hand.revealed == 3 and hand.phase == "play"


def test_the_revealed_hand_is_visible_to_all_four_and_stays_current_as_it_is_played():
    hand = started()
    hand.apply(Action(0, "show_start"))
    hand.apply(Action(0, "show_pick", reveal=0))
    for seat in (None, 1, 2, 3):
        assert hand.view(seat).revealed_hand == cards("S3 S4 S5")
    play(hand, 0, "3")
    assert hand.view(1).revealed_hand == cards("S4 S5")


def test_partners_consent_is_not_needed():
    hand = started()
    hand.apply(Action(1, "show_start"))
    hand.apply(Action(1, "show_pick", reveal=3))  # seat 3 was never asked
    assert hand.revealed == 3


def test_show_multiplier_multiplies_the_stakes_but_not_the_dun_bonus():
    hand = table("3 3 3 3 3 3 3 9", "4 8", "5", "6 6", preset="baomahui")
    hand.apply(Action(1, "show_start"))
    hand.apply(Action(1, "show_pick", reveal=1))
    script(hand, "0:3333333; 1:pass; 2:pass; 3:pass")
    script(hand, "0:9; 1:pass; 2:pass; 3:pass")  # seat 0 is out; seat 1 leads next
    script(hand, "1:4; 2:5")  # seat 2 is out too: 双关 for team A
    result = outcome(hand)
    assert result is not None and result["ended_by"] == "double"
    assert result["stakes"] == ["2", "-2", "2", "-2"]
    assert result["bonus"] == ["3/2", "-1/2", "-1/2", "-1/2"]
    assert result["total"] == ["7/2", "-5/2", "3/2", "-5/2"]
    assert result["shown"] == {"by": 1, "revealed": 1}


def test_without_a_show_the_stakes_are_not_multiplied():
    hand = table("3 3 3 3 3 3 3 9", "4 8", "5", "6 6", preset="baomahui")
    script(hand, "0:3333333; 1:pass; 2:pass; 3:pass; 0:9; 1:pass; 2:pass; 3:pass; 1:4; 2:5")
    assert outcome(hand) is not None and outcome(hand)["stakes"] == ["1", "-1", "1", "-1"]
