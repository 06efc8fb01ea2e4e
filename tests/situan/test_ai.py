"""The 四团 AI: legal, sees only its view, plays like a partner."""

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ai.situan.easy import SituanEasyAI
from engine.ai.situan.normal import SituanAI
from engine.situan import Rules, SituanHand
from tests.record_actions import Action
from tests.situan.helpers import script, table

AI = SituanAI()


def decide(hand: SituanHand) -> Action:
    seat = hand.show_by if hand.phase == "show_pick" else hand.turn
    return AI.decide(hand.view(seat), hand.legal_actions(seat))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), preset=st.sampled_from(["nanchang", "spade3", "baomahui"]))
def test_the_ai_only_takes_legal_actions_and_finishes_the_hand(seed, preset):
    hand = SituanHand.from_seed(Rules.from_preset(preset), seed)
    for _ in range(2000):
        if hand.over:
            break
        hand.apply(decide(hand))  # raises IllegalAction if the AI breaks a rule
    assert hand.over


def test_the_ai_decides_from_the_view_alone():
    hand = SituanHand.from_seed(Rules.from_preset(), 4)
    view = hand.view(hand.turn)
    action = AI.decide(view, hand.legal_actions(hand.turn))
    assert action.seat == hand.turn
    hand.apply(action)


def test_it_does_not_beat_its_partners_winning_play():
    hand = table("9 3 3", "4 4 4", "A 2 5", "6 6 6")
    script(hand, "0:9; 1:pass")
    assert decide(hand).act == "pass"  # seat 2 holds A and 2 but lets seat 0's 9 stand


def test_it_beats_an_opponent_cheaply_with_its_lowest_sufficient_group():
    hand = table("9 3 3", "10 4 4", "A J 5", "6 6 6")
    script(hand, "0:3; 1:10")
    action = decide(hand)  # seat 2
    assert action.act == "play" and action.ranks == ("J",)  # the J, not the A


def test_it_keeps_a_bomb_when_nothing_is_at_stake():
    many = "3 4 5 6 7 8 J Q A 2 3 4"  # twelve cards: the opponents are far from going out
    hand = table("9 9 9 9 3 5 6", many, "J Q K", many, first=3)
    script(hand, "3:8")
    assert decide(hand).act == "pass"  # seat 0 could only beat the 8 with its bomb


def test_it_spends_a_bomb_when_an_opponent_is_about_to_go_out():
    hand = table("9 9 9 9 3 4 5 6 7 8 10 J Q K", "A 2", "5 6 7", "8 8 3")
    script(hand, "0:3; 1:A")  # seat 1 has one card left
    script(hand, "2:pass; 3:pass")
    action = decide(hand)
    assert action.act == "play" and action.ranks == ("9",) * 4


def test_it_plays_a_bomb_whole_and_leaves_no_scrap_of_the_rank():
    # seat 0 holds five 9s: bombing with four of them would leave a lone 9
    hand = table("9 9 9 9 9 3 4 5 6 7 8 10 J Q K", "A 2", "5 6 7", "8 8 3")
    script(hand, "0:3; 1:A")  # seat 1 has one card left: worth a bomb
    script(hand, "2:pass; 3:pass")
    action = decide(hand)
    assert action.act == "play" and action.ranks == ("9",) * 5
    easy = SituanEasyAI()
    split = easy.decide(hand.view(0), hand.legal_actions(0))
    assert split.ranks == ("9",) * 4  # the easy player splits the group (the baseline)


def test_it_splits_a_group_when_what_stays_is_a_bomb_too():
    hand = table("9 9 9 9 9 9 9 9 3 4 5 6 7 8 10", "A 2", "5 6 7", "8 8 3")
    script(hand, "0:3; 1:A")
    script(hand, "2:pass; 3:pass")
    assert decide(hand).ranks == ("9",) * 4  # four 9s still make a bomb


def test_it_plays_its_whole_hand_when_that_goes_out_at_once():
    hand = table("3", "7 7 7 8", "9 9 9 9 9", "4 4 4 5")
    script(hand, "0:3; 1:8")
    assert decide(hand).ranks == ("9",) * 5  # seat 2 goes out with its bomb


def test_it_starts_a_show_when_stakes_multiply_and_its_hand_is_strong():
    strong = "3 3 3 3 4 4 4 4 5 5 5 5 6 6 6 6 A"
    hand = table(strong, "7 8", "9 10", "J Q", preset="baomahui")
    assert decide(hand).act == "show_start"
    plain = table(strong, "7 8", "9 10", "J Q")
    assert decide(plain).act == "play"  # with a multiplier of 1 the show gains nothing
