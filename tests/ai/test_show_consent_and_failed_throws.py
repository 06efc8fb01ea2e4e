"""The AI players at the two options' decision points: a 四团 partner asked to consent to a
亮牌, and a 二七王 leader where a failed throw is played as its smallest part."""

import pytest

from engine.actions import AnswerShow, PickShow, StartShow
from engine.ai import player
from engine.erqiwang.events import ThrowFailed
from tests.ai.helpers import assert_legal, deal, drive, fast_hard
from tests.record_actions import Action
from tests.situan.helpers import table

CONSENT = {"show_consent": "partner"}


def asked(*hands: str, by: int = 1, **options):
    """A 四团 hand where seat ``by`` has asked its partner for a 亮牌."""
    hand = table(*hands, **CONSENT, **options)
    hand.apply(Action(by, "show_start"))
    return hand


STRONG = "3333 4444 5 6 7"  # two bombs
WEAK = "3 4 5 6 7 8 9 10"  # none


def answer(level: str, hand) -> AnswerShow:
    seat = hand.to_act
    chosen = player("situan", level).decide(hand.view(seat), hand.legal_actions(seat))
    assert isinstance(chosen, AnswerShow) and chosen.seat == seat
    return chosen


def test_normal_accepts_a_doubled_show_with_a_strong_hand():
    hand = asked(WEAK, "8 9 10", WEAK, STRONG, preset="baomahui")
    assert answer("normal", hand).accept


def test_normal_refuses_a_doubled_show_with_a_weak_hand():
    hand = asked(WEAK, "8 9 10", WEAK, WEAK, preset="baomahui")
    assert not answer("normal", hand).accept


def test_normal_accepts_a_show_that_doubles_nothing_it_picks_the_hand_shown():
    hand = asked(WEAK, "8 9 10", WEAK, WEAK)  # show_multiplier 1
    assert answer("normal", hand).accept


def test_easy_and_hard_answer_as_their_levels_do_with_legal_answers():
    hand = asked(WEAK, "8 9 10", WEAK, WEAK, preset="baomahui")
    assert answer("easy", hand).accept  # the first player agrees to anything
    seat = hand.to_act
    hard = fast_hard("situan").decide(hand.view(seat), hand.legal_actions(seat))
    assert hard == AnswerShow(seat, False)  # ``hard`` leaves it to ``normal``


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_the_consenting_partner_picks_a_hand_that_holds_cards(level):
    hand = asked(WEAK, "8 9 10", WEAK, STRONG, preset="baomahui")
    hand.apply(AnswerShow(3, True))
    chosen = player("situan", level).decide(hand.view(3), hand.legal_actions(3))
    assert isinstance(chosen, PickShow) and chosen.seat == 3
    assert chosen.reveal == 1  # the shorter hand: less for the opponents to work with


def test_a_refused_player_does_not_ask_again_and_plays_on():
    bombs = "3333 4444 5555 6"  # strong enough to ask under baomahui
    hand = table(bombs, WEAK, WEAK, WEAK, preset="baomahui", **CONSENT)
    normal = player("situan", "normal")
    assert normal.decide(hand.view(0), hand.legal_actions(0)) == StartShow(0)
    hand.apply(StartShow(0))
    hand.apply(AnswerShow(2, False))
    again = normal.decide(hand.view(0), hand.legal_actions(0))
    assert again.act == "play"


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_every_situan_decision_is_legal_with_consent(level):
    answers = set()
    for seed in range(12):
        hand = deal("situan", seed, preset="baomahui", **CONSENT)
        driver = player("situan", level)
        for _ in drive(hand, driver, {}):
            last = hand.history[-1]
            if isinstance(last, AnswerShow):
                answers.add(last.accept)
        assert hand.over
    assert True in answers  # the consent step was reached


def test_hard_situan_decisions_are_legal_with_consent():
    hand = deal("situan", 5, preset="baomahui", **CONSENT)
    probes = {"hard": fast_hard("situan"), "easy": player("situan", "easy")}
    list(drive(hand, player("situan", "normal"), probes, every=9))
    assert hand.over


@pytest.mark.parametrize("preset", ["classic", "online"])
@pytest.mark.parametrize("level", ["easy", "normal"])
def test_no_level_attempts_a_throw_it_can_see_is_unsafe(level, preset):
    """Over many deals the players throw, and never a throw that fails."""
    throws = 0
    for seed in range(30):
        hand = deal("erqiwang", seed, preset=preset, failed_throw="smallest")
        ai = player("erqiwang", level)
        while not hand.over:
            seat = hand.to_act
            action = ai.decide(hand.view(seat), hand.legal_actions(seat))
            assert_legal(hand, seat, action)
            leading = hand.phase == "play" and hand.lead_shape is None
            events = hand.apply(action)
            assert not any(isinstance(e, ThrowFailed) for e in events)
            throws += leading and hand.lead_shape is not None and hand.lead_shape.components > 1
    assert throws > 0


def test_hard_never_leads_a_throw_that_fails():
    """At every lead of a hand ``normal`` plays out, ``hard``'s lead, tried on a copy."""
    hand = deal("erqiwang", 7, failed_throw="smallest")
    normal, hard = player("erqiwang", "normal"), fast_hard("erqiwang")
    leads = 0
    while not hand.over:
        seat = hand.to_act
        if hand.phase == "play" and hand.lead_shape is None:
            lead = hard.decide(hand.view(seat), hand.legal_actions(seat))
            assert_legal(hand, seat, lead)
            assert not any(isinstance(e, ThrowFailed) for e in hand.fork().apply(lead))
            leads += 1
        hand.apply(normal.decide(hand.view(seat), hand.legal_actions(seat)))
    assert leads >= 5
