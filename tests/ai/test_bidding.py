"""二七王 bidding from hand strength: AI-only tables hold real auctions."""

from collections import Counter

from engine.actions import Bid
from engine.ai import player
from engine.ai.erqiwang.bidding import expected_defender_points
from engine.cards import parse_cards
from tests.ai.helpers import deal


def auction(seed, **options):
    hand = deal("erqiwang", seed, **options)
    normal = player("erqiwang", "normal")
    while hand.phase == "bidding":
        seat = hand.to_act
        action = normal.decide(hand.view(seat), hand.legal_actions(seat))
        assert action in hand.legal_actions(seat)
        hand.apply(action)
    return None if hand.over else hand.bid


def test_ai_tables_rarely_redeal_and_win_at_many_different_bids():
    bids = [auction(seed) for seed in range(200)]
    redeals = bids.count(None)
    assert redeals < 20  # under 10% of 200 deals
    assert len(Counter(b for b in bids if b is not None)) >= 8


def test_auctions_keep_to_a_coarser_step_and_a_lower_top():
    bids = [auction(seed, bid_step=10, bid_max=115) for seed in range(60)]
    made = [b for b in bids if b is not None]
    assert made and all(b % 10 == 0 and b <= 110 for b in made)
    assert bids.count(None) < len(bids) // 2  # a lower top leaves fewer hands worth it


def test_a_stronger_hand_expects_the_defenders_to_take_less():
    weak = parse_cards(
        "S3 S4 S5 S6 S8 H3 H4 H5 H6 C3 C4 C5 C6 D3 D4 D5 D6 D8 D9 S9 H8 C8 C9 H9 D10"
    )
    strong = parse_cards(
        "BJ BJ LJ LJ H7 H7 S7 S7 H2 H2 HA HA HK HK SA SA CA H3 H4 H5 H6 H8 H9 D3 C3"
    )
    assert expected_defender_points(strong) < 60 < 150 < expected_defender_points(weak)
    assert expected_defender_points(strong, decks=1) < expected_defender_points(strong)


def test_the_strong_hand_opens_at_the_top_and_the_weak_hand_passes():
    hand = deal("erqiwang", 0)
    seat = hand.to_act
    legal = hand.legal_actions(seat)
    action = player("erqiwang", "normal").decide(hand.view(seat), legal)
    assert action in legal
    assert isinstance(action, Bid) or action.act == "pass"
