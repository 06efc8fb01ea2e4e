"""rules-situan.md, 亮牌: the option ``show_consent`` — one test per sentence of its paragraph,
then the readings taken where it is silent (docs/readings.md)."""

import json

from engine.actions import AnswerShow
from engine.events import TimedOut
from engine.replay import replay_record
from engine.situan import Rules, SituanHand
from engine.situan.events import HandRevealed, ShowAnswered, ShowAsked, ShowStarted
from engine.situan.record import record_of
from engine.situan.show import partner_of
from tests.record_actions import Action, outcome
from tests.situan.helpers import cards, play, refused, script, table


def consenting(**options):
    """Seat 0 to lead; partners 0 & 2 and 1 & 3; the partner's consent needed."""
    return table("3 4 5", "6 7 8", "9 10 J", "Q K A", show_consent="partner", **options)


# "Partner's consent is not needed (default)."


def test_consent_is_not_needed_by_default():
    assert Rules.from_preset("nanchang").show_consent == "no"
    hand = table("3 4 5", "6 7 8", "9 10 J", "Q K A")
    events = hand.apply(Action(1, "show_start"))
    assert ShowStarted(1, 3) in events and not any(isinstance(e, ShowAsked) for e in events)
    assert hand.phase == "show_pick" and hand.to_act == 1


def test_every_preset_keeps_the_default():
    for preset in ("nanchang", "spade3", "baomahui"):
        assert Rules.from_preset(preset).show_consent == "no"


def test_show_consent_takes_no_or_partner_and_nothing_else():
    assert Rules.from_preset("nanchang", show_consent="partner").show_consent == "partner"
    from engine.errors import RecordError

    try:
        Rules.from_preset("nanchang", show_consent="yes")
    except RecordError as error:
        assert error.code == "bad_rules"
    else:
        raise AssertionError("show_consent=yes was accepted")


# "With partner, the partner must accept the show within the turn time, …"


def test_with_partner_the_show_waits_for_the_partners_answer_within_the_turn_time():
    hand = consenting(turn_seconds=45)
    events = hand.apply(Action(1, "show_start"))  # seat 0 was to play
    assert events == [ShowAsked(1, 3)]
    assert hand.phase == "show_consent" and hand.to_act == 3
    assert hand.time_limit == 45
    assert hand.legal_actions(3)[:2] == [AnswerShow(3, True), AnswerShow(3, False)]
    assert not any(isinstance(a, AnswerShow) for s in (0, 1, 2) for a in hand.legal_actions(s))


def test_nobody_sees_a_hand_before_the_partner_accepts():
    hand = consenting()
    hand.apply(Action(1, "show_start"))
    assert all(hand.view(s).show_seen == {} for s in range(4))
    hand.apply(AnswerShow(3, True))
    assert hand.view(1).show_seen == {3: cards("SQ SK SA")}
    assert hand.view(3).show_seen == {1: cards("S6 S7 S8")}
    assert hand.view(0).show_seen == {} and hand.view(None).show_seen == {}


def test_only_the_partner_answers_and_everything_else_waits():
    hand = consenting()
    hand.apply(Action(1, "show_start"))
    assert refused(hand, AnswerShow(1, True)) == "not_your_turn"  # the initiator
    assert refused(hand, AnswerShow(0, True)) == "not_your_turn"  # an opponent
    assert refused(hand, Action(0, "play", cards=cards("S3"))) == "wrong_phase"
    assert refused(hand, Action(2, "show_start")) == "wrong_phase"
    assert refused(hand, Action(3, "show_pick", reveal=3)) == "wrong_phase"
    assert refused(hand, Action(0, "timeout")) == "not_your_turn"


def test_an_answer_with_no_request_is_wrong_phase():
    hand = consenting()
    assert refused(hand, AnswerShow(2, True)) == "wrong_phase"


# "… and the partner picks which of the two hands is shown …"


def test_the_partner_picks_which_of_the_two_hands_is_shown():
    hand = consenting()
    hand.apply(Action(1, "show_start"))
    events = hand.apply(AnswerShow(3, True))
    assert ShowAnswered(1, 3, True) in events and ShowStarted(1, 3) in events
    assert hand.phase == "show_pick" and hand.to_act == 3
    assert refused(hand, Action(1, "show_pick", reveal=1)) == "not_your_turn"
    events = hand.apply(Action(3, "show_pick", reveal=1))  # the initiator's hand
    assert HandRevealed(1, cards("S6 S7 S8")) in events
    assert hand.revealed == 1 and hand.phase == "play" and hand.to_act == 0


def test_the_partner_may_pick_its_own_hand_but_no_other():
    hand = consenting()
    hand.apply(Action(1, "show_start"))
    hand.apply(AnswerShow(3, True))
    assert refused(hand, Action(3, "show_pick", reveal=0)) == "show_not_allowed"
    hand.apply(Action(3, "show_pick", reveal=3))
    assert hand.revealed == 3
    assert outcome(hand) is None
    assert hand.view(0).revealed_hand == cards("SQ SK SA")


def test_an_accepted_show_is_the_hands_one_show_and_multiplies_the_stakes():
    hand = table("3 3 3 3 3 3 3 9", "4 8", "5", "6 6", preset="baomahui", show_consent="partner")
    hand.apply(Action(2, "show_start"))
    hand.apply(AnswerShow(0, True))
    hand.apply(Action(0, "show_pick", reveal=2))
    assert refused(hand, Action(1, "show_start")) == "show_not_allowed"
    script(hand, "0:3333333; 1:pass; 2:pass; 3:pass; 0:9; 1:pass; 2:pass; 3:pass; 1:4; 2:5")
    result = outcome(hand)
    assert result is not None and result["shown"] == {"by": 2, "revealed": 2}
    assert result["stakes"] == ["2", "-2", "2", "-2"]


# "… a refusal or a time-out cancels the show and the hand goes on."


def test_a_refusal_cancels_the_show_and_the_hand_goes_on():
    hand = consenting()
    hand.apply(Action(1, "show_start"))
    events = hand.apply(AnswerShow(3, False))
    assert events == [ShowAnswered(1, 3, False)]
    assert hand.phase == "play" and hand.to_act == 0  # seat 0 was to play, and still is
    assert hand.show_by is None and hand.revealed is None
    assert all(hand.view(s).show_seen == {} for s in range(4))
    play(hand, 0, "3")
    assert hand.turn == 1


def test_a_time_out_cancels_the_show_and_counts_as_the_partners_time_out():
    hand = consenting()
    hand.apply(Action(1, "show_start"))
    events = hand.apply(Action(3, "timeout"))
    assert ShowAnswered(1, 3, False, timed_out=True) in events
    assert TimedOut(3, 1) in events and hand.timeouts[3] == 1
    assert hand.phase == "play" and hand.show_by is None and hand.revealed is None


def test_a_cancelled_show_did_not_happen_the_stakes_stay_single():
    hand = table("3 3 3 3 3 3 3 9", "4 8", "5", "6 6", preset="baomahui", show_consent="partner")
    hand.apply(Action(1, "show_start"))
    hand.apply(AnswerShow(3, False))
    script(hand, "0:3333333; 1:pass; 2:pass; 3:pass; 0:9; 1:pass; 2:pass; 3:pass; 1:4; 2:5")
    result = outcome(hand)
    assert result is not None and result["shown"] is None
    assert result["stakes"] == ["1", "-1", "1", "-1"]


# Readings where the paragraph is silent (docs/readings.md).


def test_after_a_refusal_another_player_may_still_start_a_show():
    hand = consenting()
    hand.apply(Action(1, "show_start"))
    hand.apply(AnswerShow(3, False))
    assert Action(3, "show_start") in hand.legal_actions(3)
    hand.apply(Action(3, "show_start"))
    assert hand.to_act == partner_of(3) == 1


def test_a_refused_initiator_may_not_ask_again_in_the_hand():
    hand = consenting()
    hand.apply(Action(1, "show_start"))
    hand.apply(AnswerShow(3, False))
    assert Action(1, "show_start") not in hand.legal_actions(1)
    assert refused(hand, Action(1, "show_start")) == "show_not_allowed"
    assert hand.view(0).show_refused == (False, True, False, False)


def test_on_a_time_out_of_the_partners_pick_the_initiators_hand_is_revealed():
    hand = consenting()
    hand.apply(Action(2, "show_start"))
    hand.apply(AnswerShow(0, True))
    assert refused(hand, Action(2, "timeout")) == "not_your_turn"
    hand.apply(Action(0, "timeout"))
    assert hand.revealed == 2 and hand.phase == "play"


def test_a_partner_who_is_out_still_answers_and_only_the_initiators_hand_can_be_shown():
    hand = table("3", "6 7", "9 10", "Q K", show_consent="partner")
    play(hand, 0, "3")  # seat 0 is out
    hand.apply(Action(2, "show_start"))
    assert hand.to_act == 0
    hand.apply(AnswerShow(0, True))
    assert hand.legal_actions(0)[:-1] == [Action(0, "show_pick", reveal=2)]
    assert refused(hand, Action(0, "show_pick", reveal=0)) == "show_not_allowed"


def dealt(**options):
    """A whole deal (records hold whole deals)."""
    return SituanHand.from_seed(Rules.from_preset("nanchang", **options), seed=5)


def test_show_answer_needs_accept_true_or_false_in_a_record():
    hand = dealt(show_consent="partner")
    record = record_of(hand)
    record["actions"] = [
        {"seat": 1, "act": "show_start"},
        {"seat": 3, "act": "show_answer", "accept": "yes"},
        {"seat": 3, "act": "show_answer"},
        {"seat": 3, "act": "show_answer", "accept": True},
        {"seat": 3, "act": "show_pick", "reveal": 3},
    ]
    verdicts = [v.get("error") for v in replay_record(record)["actions"]]
    assert verdicts == [None, "bad_action", "bad_action", None, None]


def test_a_record_with_its_answers_replays_to_the_same_state():
    hand = dealt(show_consent="partner")
    hand.apply(Action(1, "show_start"))
    hand.apply(AnswerShow(3, False))
    hand.apply(Action(3, "show_start"))
    hand.apply(AnswerShow(1, True))
    hand.apply(Action(1, "show_pick", reveal=3))
    record = json.loads(json.dumps(record_of(hand)))
    assert record["rules"]["options"]["show_consent"] == "partner"
    assert record["actions"][1] == {"seat": 3, "act": "show_answer", "accept": False}
    output = replay_record(record)
    assert all(v["ok"] for v in output["actions"])
    assert output["result"]["shown"] == {"by": 3, "revealed": 3}


def test_a_record_written_before_the_option_replays_without_consent():
    hand = dealt()
    record = json.loads(json.dumps(record_of(hand)))
    del record["rules"]["options"]["show_consent"]
    record["actions"] = [
        {"seat": 1, "act": "show_start"},
        {"seat": 1, "act": "show_pick", "reveal": 3},
    ]
    output = replay_record(record)
    assert all(v["ok"] for v in output["actions"])
    assert output["result"]["shown"] == {"by": 1, "revealed": 3}


def test_without_the_option_an_answer_is_wrong_phase():
    hand = table("3 4 5", "6 7 8", "9 10 J", "Q K A")
    hand.apply(Action(1, "show_start"))
    assert refused(hand, AnswerShow(3, True)) == "wrong_phase"
