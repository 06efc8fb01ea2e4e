"""Invariants over random 四团 games (hypothesis): cards and points conserved, every game
ends, replay reproduces the result, a seat's view never leaks another seat's cards."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.replay import replay_record
from engine.situan import Rules, SituanHand, situan_deck
from engine.situan.legal import PLAYS
from engine.situan.record import record_of
from tests.record_actions import Action, outcome

DECK = Counter(situan_deck())
MAX_ACTIONS = 3000

rule_options = st.fixed_dictionaries(
    {
        "lead_after_out": st.sampled_from(["next", "partner"]),
        "first_leader": st.sampled_from(["flip", "spade3"]),
        "early_end": st.booleans(),
        "dun_counted": st.sampled_from(["dealt", "played"]),
        "show_multiplier": st.sampled_from([1, 2]),
    }
)


def random_action(hand: SituanHand, rng: random.Random) -> Action:
    """A random action the rules allow, now and then a show, a time-out or 托管."""
    if hand.phase == "show_pick":
        by = hand.show_by
        assert by is not None
        choices = [s for s in (by, (by + 2) & 3) if hand.held[s]]
        if rng.random() < 0.3:
            return Action(by, "timeout")
        return Action(by, "show_pick", reveal=rng.choice(choices))
    roll = rng.random()
    if roll < 0.01 and hand.show_by is None:
        return Action(rng.choice(hand.holding()), "show_start")
    if roll < 0.05:
        return Action(hand.turn, "timeout")
    if roll < 0.06:
        return Action(rng.randrange(4), "auto", on=rng.random() < 0.5)
    plays = hand.legal_plays()
    pick = rng.randrange(len(plays) + hand.can_pass)
    return PLAYS[hand.turn][plays[pick]] if pick < len(plays) else Action(hand.turn, "pass")


def play_out(hand: SituanHand, rng: random.Random, check=None, choose=None) -> int:
    """Plays ``hand`` to its end with ``choose`` (default `random_action`), calling ``check``
    after every step; returns the number of steps."""
    choose = choose or random_action
    steps = 0
    while not hand.over:
        hand.apply(choose(hand, rng))
        steps += 1
        assert steps < MAX_ACTIONS, "the hand does not end"
        if check is not None:
            check(hand)
    return steps


def assert_cards_conserved(hand: SituanHand) -> None:
    held = Counter(c for s in range(4) for c in hand.cards_of(s))
    dealt = Counter(c for h in hand.deal.hands for c in h) + Counter(hand.deal.bottom)
    assert dealt == DECK
    in_hands = sum(held.values())
    assert in_hands == sum(hand.held)
    assert sum(hand.played_counts) + in_hands == 156
    assert all(held[c] <= dealt[c] for c in held)


def assert_points_conserved(hand: SituanHand) -> None:
    in_hands = sum(c.points for s in range(4) for c in hand.cards_of(s))
    total = sum(hand.captured) + hand.table_points + in_hands + hand.bottom_points
    assert total == 300


def assert_views_do_not_leak(hand: SituanHand) -> None:
    for seat in (None, 0, 1, 2, 3):
        view = hand.view(seat)
        allowed = Counter(view.hand) + Counter(view.revealed_hand) + Counter(view.bottom)
        if seat is not None:
            assert view.hand == hand.cards_of(seat)
            partner = (seat + 2) & 3
            assert set(view.show_seen) <= {partner}
            if view.show_seen:
                assert hand.show_by in (seat, partner)
                allowed += Counter(view.show_seen[partner])
        else:
            assert view.hand == () and view.show_seen == {}
        if hand.revealed is not None:
            assert view.revealed_hand == hand.cards_of(hand.revealed)
        else:
            assert view.revealed_hand == ()
        assert Counter(view.known_cards()) == allowed
        for other in range(4):
            if other != seat and other != hand.revealed:
                assert view.counts[other] is None or view.counts[other] == hand.held[other]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), options=rule_options)
def test_cards_and_points_are_conserved_at_every_step(seed, options):
    hand = SituanHand.from_seed(Rules.from_preset("nanchang", **options), seed)

    def check(h: SituanHand) -> None:
        assert_cards_conserved(h)
        assert_points_conserved(h)

    play_out(hand, random.Random(seed), check)
    result = outcome(hand)
    assert result is not None
    if result["ended_by"] == "points":
        assert result["team_points"]["A"] + result["team_points"]["B"] == 300


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32), options=rule_options)
def test_every_random_game_ends_with_a_settled_result(seed, options):
    hand = SituanHand.from_seed(Rules.from_preset("nanchang", **options), seed)
    play_out(hand, random.Random(seed ^ 0x5EED))
    result = outcome(hand)
    assert result is not None and result["ended_by"] in ("double", "points", "decided")
    assert sorted(result["finish"]) == [0, 1, 2, 3]
    from fractions import Fraction

    assert sum(Fraction(x) for x in result["total"]) == 0
    if result["winner"] is None:
        assert result["ended_by"] == "points" and "carry" in result


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), options=rule_options, cut=st.floats(0, 1))
def test_replaying_a_record_reproduces_the_same_state_and_result(seed, options, cut):
    hand = SituanHand.from_seed(Rules.from_preset("nanchang", **options), seed)
    rng = random.Random(seed)
    full = SituanHand.from_seed(Rules.from_preset("nanchang", **options), seed)
    play_out(full, rng)
    stop = int(len(full.history) * cut)
    for action in full.history[:stop]:
        hand.apply(action)
    record = json.loads(json.dumps(record_of(hand)))
    output = replay_record(record)
    assert all(v["ok"] for v in output["actions"])
    assert output["over"] == hand.over
    if hand.over:
        assert output["result"] == outcome(hand)
    else:
        assert output["result"]["captured"] == hand.captured
        assert output["result"]["turn"] == hand.turn
    full_output = replay_record(json.loads(json.dumps(record_of(full))))
    assert full_output["result"] == outcome(full)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), options=rule_options)
def test_a_seats_view_never_contains_another_seats_cards(seed, options):
    hand = SituanHand.from_seed(Rules.from_preset("nanchang", **options), seed)
    play_out(hand, random.Random(seed), assert_views_do_not_leak)
