"""rules-situan.md: Auto-play (托管) and time-outs."""

from engine.situan.events import AutoChanged, Passed, Played, TimedOut
from tests.record_actions import Action
from tests.situan.helpers import play, refused, table


def test_on_a_time_out_the_table_passes_whenever_passing_is_allowed():
    hand = table("9 3", "A 4", "5 6", "8 7")
    play(hand, 0, "9")
    events = hand.apply(Action(1, "timeout"))
    assert TimedOut(1, 1) in events and Passed(1) in events


def test_on_a_time_out_when_leading_the_lowest_single_is_played():
    hand = table("9 9 4 LJ", "A", "5", "8")
    events = hand.apply(Action(0, "timeout"))
    played = [e for e in events if isinstance(e, Played)]
    assert len(played) == 1 and played[0].combo.rank_text() == "4"


def test_only_the_seat_to_act_can_time_out():
    hand = table("9 3", "A 4", "5 6", "8 7")
    assert refused(hand, Action(2, "timeout")) == "not_your_turn"


def test_one_time_out_puts_the_player_on_tuoguan_by_default():
    """Seed 004: 60 秒不进行操作，系统自动对该用户进行接管 — at the first time-out."""
    hand = table("3 4 5 6 7 8 9", "A K Q J", "5 6 6 6", "8 7 7 7")
    events = hand.apply(Action(0, "timeout"))
    assert TimedOut(0, 1) in events and AutoChanged(0, True) in events and hand.auto[0]


def test_with_timeouts_for_auto_3_the_third_time_out_puts_the_player_on_tuoguan():
    hand = table("9 8 7 3", "A K Q 4", "5 6 6 6", "8 7 7 7", timeouts_for_auto=3)
    for _ in range(2):
        events = hand.apply(Action(hand.turn, "timeout"))
        assert not any(isinstance(e, AutoChanged) for e in events) or hand.turn != 0
    hand = table("3 4 5 6 7 8 9", "A K Q J", "5 6 6 6", "8 7 7 7", timeouts_for_auto=3)
    for n in (1, 2, 3):
        events = hand.apply(Action(0, "timeout"))  # seat 0 leads a single each time
        for seat in (1, 2, 3):
            hand.apply(Action(seat, "pass"))
        assert (AutoChanged(0, True) in events) == (n == 3)
    assert hand.auto[0] and hand.timeouts[0] == 3


def test_tuoguan_lasts_until_the_player_acts_again_by_themselves():
    hand = table("3 4 5 6 7 8 9", "A K Q J", "5 6 6 6", "8 7 7 7")
    hand.apply(Action(0, "auto", on=True))
    assert hand.auto[0]
    events = play(hand, 0, "9")
    assert AutoChanged(0, False) in events and not hand.auto[0]


def test_a_player_may_enter_and_leave_tuoguan_at_will():
    hand = table("3 4", "A K", "5 6", "8 7")
    assert hand.apply(Action(2, "auto", on=True)) == [AutoChanged(2, True)]
    assert hand.apply(Action(2, "auto", on=False)) == [AutoChanged(2, False)]
    assert refused(hand, Action(2, "auto", on="yes")) == "bad_action"  # type: ignore[arg-type]


def test_each_action_has_a_time_limit_of_turn_seconds_60_by_default():
    assert table("3", "4", "5", "6").rules.turn_seconds == 60
    assert table("3", "4", "5", "6", turn_seconds=30).rules.turn_seconds == 30
