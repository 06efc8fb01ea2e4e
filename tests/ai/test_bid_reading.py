"""The ``hard`` 二七王 player reads the auction: a sampled deal must fit what each other seat
bid or passed, and the real deal of a ``normal`` auction always does."""

import random

from engine.ai import player
from engine.ai.erqiwang.bid_reading import bids_fit
from engine.ai.erqiwang.bidding import expected_defender_points
from engine.ai.erqiwang.sampling import sampled_hand
from engine.cards import parse_card
from engine.erqiwang.rules import deck_defaults
from tests.ai.helpers import deal


def after_auction(seed, **options):
    """A 二七王 hand whose auction four ``normal`` players have finished."""
    hand = deal("erqiwang", seed, **options)
    normal = player("erqiwang", "normal")
    while hand.phase == "bidding":
        seat = hand.to_act
        hand.apply(normal.decide(hand.view(seat), hand.legal_actions(seat)))
    return hand


def test_the_real_deal_of_a_normal_auction_fits_its_bids():
    checked = 0
    for seed in range(60):
        for options in ({}, {"first_must_bid": True}, {"decks": 1, **deck_defaults(1)}):
            hand = after_auction(seed, **options)
            for seat in range(4):
                assert bids_fit(hand.view(seat), hand.deal.hands)
                checked += 1
    assert checked == 720


def test_a_seat_that_passed_does_not_hold_the_hand_that_would_have_bid():
    refused = 0
    for seed in range(60):
        hand = after_auction(seed)
        bids = hand.bids
        if hand.over or len({s for s, points in bids if points is None}) < 1:
            continue
        declarer = hand.declarer
        passer = next(s for s, points in bids if points is None and s != declarer)
        observer = next(s for s in range(4) if s not in (declarer, passer))
        strong = hand.deal.hands[declarer]
        weak = hand.deal.hands[passer]
        if expected_defender_points(strong) > expected_defender_points(weak) - 30:
            continue  # too close to tell apart
        swapped = list(hand.deal.hands)
        swapped[declarer], swapped[passer] = weak, strong
        assert not bids_fit(hand.view(observer), swapped)
        refused += 1
    assert refused >= 5


def weak_hand():
    """25 low side cards: a hand no player would bid with."""
    low = [f"{suit}{rank}" for suit in "SHCD" for rank in "34568"] * 2
    return tuple(parse_card(text) for text in low[:25])


def test_a_bid_the_rules_forced_says_nothing():
    checked = 0
    for seed in range(40):
        hand = after_auction(seed, first_must_bid=True)
        first = hand.bids[0][0]
        others = [points for s, points in hand.bids[1:] if s == first and points is not None]
        bidders = [s for s, points in hand.bids[1:] if points is not None and s != first]
        if others or not bidders:
            continue  # the first bidder bid again, or nobody else bid freely
        observer = next(s for s in range(4) if s != first and s not in bidders)
        forced = list(hand.deal.hands)
        forced[first] = weak_hand()
        assert bids_fit(hand.view(observer), forced)
        free = list(hand.deal.hands)
        free[bidders[0]] = weak_hand()
        assert not bids_fit(hand.view(observer), free)
        checked += 1
    assert checked >= 5


def test_every_sampled_deal_of_a_defender_fits_the_auction():
    drawn = 0
    for seed in range(20):
        hand = after_auction(seed)
        if hand.over:
            continue
        normal = player("erqiwang", "normal")
        while hand.phase != "play":
            seat = hand.to_act
            hand.apply(normal.decide(hand.view(seat), hand.legal_actions(seat)))
        seat = hand.to_act
        view = hand.view(seat)
        for draw in range(5):
            sampled = sampled_hand(view, random.Random(draw))
            if sampled is not None:
                assert bids_fit(view, sampled.deal.hands)
                assert sampled.bids == hand.bids
                drawn += 1
    assert drawn >= 50
