"""The 二七王 AI: legal, sees only its view, bids, buries and defends sensibly."""

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ai.erqiwang.easy import ErqiwangEasyAI
from engine.ai.erqiwang.normal import ErqiwangAI
from engine.ai.erqiwang.policy import ErqiwangPolicy
from engine.ai.erqiwang.strength import best_trump
from engine.erqiwang import ErqiwangHand, Rules
from engine.erqiwang.order import ORDERS, TRUMP
from tests.erqiwang.helpers import cards, dealt, play, playing
from tests.record_actions import Action

AI = ErqiwangAI()
EASY = ErqiwangEasyAI()


def decide(hand: ErqiwangHand) -> Action:
    return AI.decide(hand.view(hand.to_act), hand.legal_actions(hand.to_act))


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), preset=st.sampled_from(["classic", "online", "proportional"]))
def test_the_ai_only_takes_legal_actions_and_finishes_the_hand(seed, preset):
    hand = ErqiwangHand.from_seed(Rules.from_preset(preset), seed, first=seed % 4)
    for _ in range(500):
        if hand.over:
            break
        hand.apply(decide(hand))  # raises IllegalAction if the AI breaks a rule
    assert hand.over


def test_a_weak_hand_passes_and_a_strong_hand_bids():
    weak = dealt("S3 S4 S5 S6 S8 H3 H4 H5 H6 C3 C4 C5 C6", "D3", "D4", "D5")
    assert decide(weak).act == "pass"
    strong = dealt("BJ BJ LJ LJ H7 H7 S7 S7 H2 H2 HA HA HK HK SA SA CA", "D3", "D4", "D5")
    action = decide(strong)
    assert action.act == "bid" and action.points == 120


def test_the_first_bidder_who_must_bid_bids():
    weak = dealt("S3 S4 S5 S6 S8 H3 H4 H5 H6 C3 C4 C5 C6", "D3", "D4", "D5", first_must_bid=True)
    assert decide(weak).act == "bid"


def test_it_names_the_suit_where_it_is_strongest():
    assert best_trump(cards("H3 H4 H5 H6 H8 H9 HA S3 C4"), allow_no_trump=True) == "H"


def test_it_buries_side_cards_and_keeps_its_trumps():
    hand = dealt(
        "BJ LJ H7 H2 HA HK HQ S3 S4 C3 C4 D3", "S6", "S8", "S9", bottom="H3 H4 H5 D4 D6 C6 S5 HJ"
    )
    hand.apply(Action(0, "bid", points=120))
    for seat in (1, 2, 3):
        hand.apply(Action(seat, "pass"))
    hand.apply(Action(0, "trump", suit="H"))
    action = decide(hand)
    assert action.act == "bury" and len(action.cards or ()) == 8
    assert all(ORDERS["H"].suit[c] != TRUMP for c in action.cards or ())


def test_it_declares_its_bonus_before_its_first_card():
    hand = playing("S3 S4 S5", "BJ LJ LJ", "S8 S9 S10", "SJ SQ SK")
    play(hand, 0, "S3")
    assert decide(hand).act == "declare_bonus"


def test_a_defender_gives_points_to_a_partner_who_wins_the_trick():
    hand = playing("S3 D3", "SA D4", "S5 SK", "S8 D5")
    play(hand, 0, "S3")
    play(hand, 1, "SA")  # a defender takes the lead with the top spade
    action = decide(hand)  # seat 2, a defender too, holds S5 and SK
    assert action.cards == cards("SK")


def test_a_defender_wins_cheaply_when_the_declarer_is_winning():
    hand = playing("S9 D3", "SQ SA", "S3 D6", "S8 D5")
    play(hand, 0, "S9")
    assert decide(hand).cards == cards("SQ")  # the queen is enough, the ace is kept


def test_a_defender_discards_low_when_it_cannot_win():
    hand = playing("SA D3", "S3 SK", "S5 D6", "S8 D5")
    play(hand, 0, "SA")
    assert decide(hand).cards == cards("S3")  # keeps the K's 10 points from the declarer


def test_a_defender_void_in_the_led_suit_discards_low_side_cards_not_its_jokers():
    defender = "BJ LJ HA HK H5 DA DK D10 D5 D4 CA CK C10 C5 C4 C3"
    hand = playing("S9 S9 H3 H4", defender, "S3 S4 C6 C8", "S5 S6 C9 CJ")
    play(hand, 0, "S9 S9")  # the declarer's pair: jokers cannot win it (no pair of them)
    assert {c.text for c in decide(hand).cards} in ({"C3", "C4"}, {"C3", "D4"})


def test_a_defender_feeds_points_once_the_declarer_has_played_to_a_defenders_trick():
    hand = playing("S3 D3", "SA D4", "S5 SK", "S8 D5", declarer=3)
    play(hand, 3, "S8")
    play(hand, 0, "S3")
    play(hand, 1, "SA")  # the declarer (seat 3) played first: seat 2 gives its K
    assert decide(hand).cards == cards("SK")


def lead_of(hand: ErqiwangHand, ai: ErqiwangPolicy = AI) -> str:
    """The declarer's lead, in card notation (the defenders hold trumps: no throw is safe)."""
    action = ai.decide(hand.view(hand.to_act), hand.legal_actions(hand.to_act))
    return " ".join(c.text for c in action.cards)


def test_the_declarer_pulls_trumps_with_a_pair_before_a_sure_single():
    hand = playing("BJ H3 H3 S4", "S5 S6 S8 H9", "S10 SJ SQ HQ", "D5 D6 D8 HK")
    assert lead_of(hand) == "H3 H3"  # each defender must answer with two trumps
    assert lead_of(hand, EASY) == "BJ"  # the first player pulls one trump at a time


def test_the_declarer_keeps_a_single_side_ace_while_it_holds_trumps():
    hand = playing("SA S4 H5 H6", "S5 S6 S8 H9", "S10 SJ SQ HQ", "D5 D6 D8 HK")
    assert lead_of(hand) == "S4"  # the ace stays to capture the defenders' spade points
    assert lead_of(hand, EASY) == "SA"


def test_the_declarer_cashes_a_single_side_ace_once_out_of_trumps():
    hand = playing("SA S4 D3", "S5 S6 S8", "S10 SJ SQ", "D5 D6 D8")
    assert lead_of(hand) == "SA"


def test_the_declarer_cashes_a_sure_side_pair_while_it_holds_trumps():
    hand = playing("SA SA S4 H5", "S5 S6 S8 H9", "S10 SJ SQ HQ", "D5 D6 D8 HK")
    assert lead_of(hand) == "SA SA"
