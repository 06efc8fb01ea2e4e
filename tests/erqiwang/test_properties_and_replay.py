"""Invariants over random 二七王 games, and replay of their records."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.erqiwang import ErqiwangHand, Rules, deal_from_seed, erqiwang_deck
from engine.erqiwang.bonus import bonus_of
from engine.erqiwang.record import record_of
from engine.replay import replay_record, replay_text
from tests.record_actions import Action, outcome

DECK = Counter(erqiwang_deck())
SUITS = ("S", "H", "C", "D")


def random_action(hand: ErqiwangHand, rng: random.Random) -> Action:
    """Any action the rules allow, now and then a time-out, 托管, 冲关 or a surrender."""
    seat = hand.to_act
    roll = rng.random()
    if roll < 0.04:
        return Action(seat, "timeout")
    if roll < 0.05:
        return Action(rng.randrange(4), "auto", on=rng.random() < 0.5)
    if hand.phase == "play":
        for s in range(4):
            if (
                hand.bonus_window_open(s)
                and rng.random() < 0.5
                and bonus_of(hand.hands[s], hand.trump)
            ):
                return Action(s, "declare_bonus")
        return Action(seat, "play", cards=rng.choice(hand.legal_plays()))
    if hand.phase == "bidding":
        bids = hand.allowed_bids()
        pick = rng.randrange(len(bids) + 3 * hand.may_pass_bidding())
        return Action(seat, "bid", points=bids[pick]) if pick < len(bids) else Action(seat, "pass")
    if hand.phase == "trump":
        if hand.bid is not None and hand.bid > hand.rules.surrender_above and roll < 0.08:
            return Action(seat, "surrender")
        choices = (*SUITS, "none") if hand.rules.allow_no_trump else SUITS
        return Action(seat, "trump", suit=rng.choice(choices))
    return Action(seat, "bury", cards=tuple(rng.sample(hand.hands[seat], 8)))


def play_out(hand: ErqiwangHand, rng: random.Random, check=None) -> None:
    for _ in range(1000):
        if hand.over:
            return
        hand.apply(random_action(hand, rng))
        if check is not None:
            check(hand)
    raise AssertionError("the hand does not end")


presets = st.sampled_from(["classic", "online", "proportional"])


def assert_conserved(hand: ErqiwangHand) -> None:
    held = Counter(c for h in hand.hands for c in h)
    undealt = Counter() if hand.declarer is not None else Counter(hand.deal.bottom)
    everything = held + Counter(hand.played_cards) + Counter(hand.buried) + undealt
    assert everything == DECK
    points = sum(c.points for c in everything.elements())
    assert points == 200


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), preset=presets)
def test_cards_and_200_points_are_conserved_at_every_step(seed, preset):
    hand = ErqiwangHand.from_seed(Rules.from_preset(preset), seed, first=seed % 4)
    play_out(hand, random.Random(seed), assert_conserved)
    result = outcome(hand)
    assert result is not None
    if not result.get("redeal") and not result["surrendered"]:
        trick_points = sum(c.points for c in hand.played_cards)
        assert trick_points + result["bottom_points"] == 200


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), preset=presets)
def test_every_random_game_ends_with_a_settled_result(seed, preset):
    hand = ErqiwangHand.from_seed(Rules.from_preset(preset), seed, first=seed % 4)
    play_out(hand, random.Random(seed ^ 77))
    result = outcome(hand)
    assert result is not None
    if result.get("redeal"):
        assert result == {"redeal": True}
        return
    assert sum(Fraction(x) for x in result["total"]) == 0
    assert result["declarer_won"] == (Fraction(result["stakes"][result["declarer"]]) > 0)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), preset=presets, cut=st.floats(0, 1))
def test_replaying_a_record_reproduces_the_state_and_result(seed, preset, cut):
    rules = Rules.from_preset(preset)
    full = ErqiwangHand.from_seed(rules, seed, first=seed % 4)
    play_out(full, random.Random(seed))
    output = replay_record(json.loads(json.dumps(record_of(full))))
    assert all(v["ok"] for v in output["actions"]) and output["over"]
    assert output["result"] == outcome(full)
    part = ErqiwangHand.from_seed(rules, seed, first=seed % 4)
    for action in full.history[: int(len(full.history) * cut)]:
        part.apply(action)
    partial = replay_record(json.loads(json.dumps(record_of(part))))
    assert partial["over"] == part.over


def assert_views_do_not_leak(hand: ErqiwangHand) -> None:
    public = Counter(hand.played_cards)
    for seat in (None, 0, 1, 2, 3):
        view = hand.view(seat)
        allowed = Counter(hand.hands[seat]) if seat is not None else Counter()
        if hand.declarer is not None:
            allowed += Counter(hand.deal.bottom)
        if hand.over or seat == hand.declarer:
            allowed += Counter(hand.buried)
        for _, _, shown in view.bonuses.values():
            allowed += Counter(shown)
        assert not Counter(view.known_cards()) - allowed
        assert Counter(view.played_cards) == public
        if seat is None:
            assert view.hand == ()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), preset=presets)
def test_a_seats_view_never_contains_another_seats_cards(seed, preset):
    hand = ErqiwangHand.from_seed(Rules.from_preset(preset), seed, first=seed % 4)
    play_out(hand, random.Random(seed), assert_views_do_not_leak)


def test_replay_of_a_redealt_hand_is_over_with_redeal_true():
    record = {"game": "erqiwang", "seed": 5, "first": 2,
              "actions": [{"seat": s, "act": "pass"} for s in (2, 3, 0, 1)]}  # fmt: skip
    output = replay_record(record)
    assert output == {"actions": [{"ok": True}] * 4, "over": True, "result": {"redeal": True}}


def test_replay_orders_errors_bad_action_wrong_phase_not_your_turn():
    record = {"game": "erqiwang", "seed": 5, "first": 0, "actions": [
        {"seat": 0, "act": "show_start"},
        {"seat": 0, "act": "play", "cards": ["S3"]},
        {"seat": 1, "act": "bid", "points": 100},
        {"seat": 0, "act": "bid", "points": 121},
        {"seat": 0, "act": "trump", "suit": "X"},
    ]}  # fmt: skip
    codes = [v.get("error") for v in replay_record(record)["actions"]]
    assert codes == ["bad_action", "wrong_phase", "not_your_turn", "bid_not_allowed", "bad_action"]


@pytest.mark.parametrize(
    ("record", "code"),
    [
        ({"game": "erqiwang", "seed": 1, "rules": {"preset": "nanchang"}}, "bad_rules"),
        ({"game": "erqiwang", "deal": {"hands": [[], [], [], []], "bottom": []}}, "bad_deal"),
        (
            {
                "game": "erqiwang",
                "seed": 1,
                "actions": [{"seat": 0, "act": "bury", "cards": ["S99"]}],
            },
            "unknown_card",
        ),
    ],
)
def test_malformed_erqiwang_records_exit_2_with_a_code(record, code):
    exit_code, output = replay_text(json.dumps(record))
    assert exit_code == 2 and json.loads(output)["error"] == code


def test_a_record_with_an_explicit_deal_replays():
    deal = deal_from_seed(8)
    record = {
        "game": "erqiwang", "rules": {"preset": "online"}, "first": 1,
        "deal": {"hands": [[c.text for c in h] for h in deal.hands],
                 "bottom": [c.text for c in deal.bottom]},
        "actions": [{"seat": 1, "act": "bid", "points": 80}, {"seat": 2, "act": "pass"},
                    {"seat": 3, "act": "pass"}, {"seat": 0, "act": "pass"},
                    {"seat": 1, "act": "trump", "suit": "S"}],
    }  # fmt: skip
    output = replay_record(record)
    assert [v["ok"] for v in output["actions"]] == [True] * 5
    assert output["result"]["phase"] == "bury" and output["result"]["trump"] == "S"


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), preset=presets)
def test_every_lead_and_follow_the_engine_offers_is_accepted(seed, preset):
    import copy

    hand = ErqiwangHand.from_seed(Rules.from_preset(preset), seed, first=seed % 4)
    rng = random.Random(seed)
    for _ in range(1000):
        if hand.over:
            break
        if hand.phase == "play":
            plays = hand.legal_plays()
            assert plays
            for play in plays if hand.lead_shape is None else rng.sample(plays, min(5, len(plays))):
                copy.deepcopy(hand).apply(Action(hand.turn, "play", cards=play))
        hand.apply(random_action(hand, rng))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), preset=presets)
def test_the_throws_offered_are_the_natural_throws_of_that_moment(seed, preset):
    """Throws are remembered between leads; they must always equal a fresh judgement."""
    from engine.erqiwang.leads import suit_leads, threat_of, throw_candidates
    from engine.erqiwang.order import TRUMP

    hand = ErqiwangHand.from_seed(Rules.from_preset(preset), seed, first=seed % 4)
    rng = random.Random(seed)
    for _ in range(1000):
        if hand.over:
            break
        if hand.phase == "play" and hand.lead_shape is None:
            seat, order = hand.turn, hand.order
            trumps = hand.suit_cards(seat, TRUMP)
            others = [threat_of(hand.suit_cards(s, TRUMP), order) for s in range(4) if s != seat]
            fresh = throw_candidates(trumps, order, hand.rules.throw, others)
            plain = {
                lead for cards in hand.by_suit[seat].values() for lead in suit_leads(cards, order)
            }
            offered = [p for p in hand.legal_plays() if p not in plain]
            assert offered == fresh
        hand.apply(random_action(hand, rng))
