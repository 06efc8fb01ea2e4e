"""Both games through the one protocol, over random seeds and random rule options: whatever
an AI player or 托管 chooses, in every phase, passes `check` and `apply`; the seat the hand
waits for always has something listed; every listed action passes `check` and changes
nothing by it."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import game_of
from engine.actions import ASIDE_KINDS, Bury, Play, Timeout, listed_aside
from engine.ai import LEVELS, player
from engine.errors import IllegalAction
from tests.hard_players import fixed_hard

SITUAN_OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "lead_after_out": st.sampled_from(["next", "partner"]),
        "first_leader": st.sampled_from(["flip", "spade3"]),
        "early_end": st.booleans(),
        "dun_counted": st.sampled_from(["dealt", "played"]),
        "show_multiplier": st.integers(1, 3),
        "announce_at": st.integers(0, 39),
    },
)
ERQIWANG_OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "bid_step": st.sampled_from([5, 10, 20]),
        "bid_max": st.sampled_from([60, 80, 100, 115, 120, 200]),
        "bid_min": st.sampled_from([0, 5, 25, 40]),
        "first_must_bid": st.booleans(),
        "allow_no_trump": st.booleans(),
        "throw": st.sampled_from(["trump_if_unbeatable", "trump_when_others_void", "none"]),
        "surrender_above": st.sampled_from([0, 40, 80, 115]),
        "scoring": st.sampled_from(["tiered", "online", "proportional"]),
        "bottom_multiplier": st.sampled_from(["by_cards", "doubling"]),
    },
)


def fingerprint(hand):
    return (tuple(hand.cards_of(s) for s in range(4)), len(hand.history), hand.to_act, hand.over)


def listed(action):
    """An action as the engine lists it: a play's cards are a set of cards, in any order."""
    if isinstance(action, Play):
        return (action.seat, tuple(sorted(c.text for c in action.cards)), action.ranks)
    return action


def play_out(game_name: str, options: dict, seed: int) -> int:
    game = game_of(game_name)
    rules = game.rules(**options)
    hand = game.deal(rules, seed=seed)
    rng = random.Random(seed)
    # ``hard`` on a fixed number of playouts: what it chooses is not the machine's speed's
    chooser = {level: player(game_name, level) for level in LEVELS if level != "hard"}
    chooser["hard"] = fixed_hard(game_name)
    steps = 0
    while not hand.over:
        seat = hand.to_act
        assert seat is not None
        listed_lazily = hand.legal_actions(seat)
        legal = list(hand.legal_actions(seat))
        assert legal, "the seat the hand waits for has nothing to do"
        for kind in ASIDE_KINDS:  # found from the end of the list, lazily listed or not
            first = next((a for a in legal if type(a) is kind), None)
            assert listed_aside(legal, kind) == first == listed_aside(listed_lazily, kind)
        before = fingerprint(hand)
        for action in legal:
            hand.check(action)  # raises if a listed action were refused
        assert fingerprint(hand) == before
        roll = rng.random()
        if roll < 0.2:
            action = Timeout(seat)  # 托管 / a time-out: the engine's own auto-play
        else:
            level = LEVELS[rng.randrange(len(LEVELS))]
            action = chooser[level].decide(hand.view(seat), legal)
            if not isinstance(action, Bury):
                assert listed(action) in {listed(a) for a in legal}, action
        hand.check(action)
        hand.apply(action)
        steps += 1
        assert steps < 2000
    assert hand.result is not None and sum(hand.result.total) == 0
    return steps


@settings(max_examples=15, deadline=None)
@given(options=SITUAN_OPTIONS, seed=st.integers(0, 10**6))
def test_situan_every_choice_of_ai_and_tuoguan_is_legal(options, seed):
    assert play_out("situan", options, seed) > 10


@settings(max_examples=20, deadline=None)
@given(options=ERQIWANG_OPTIONS, seed=st.integers(0, 10**6))
def test_erqiwang_every_choice_of_ai_and_tuoguan_is_legal(options, seed):
    if options.get("bid_min", 0) > options.get("bid_max", 120):
        options["bid_min"] = 0
    assert play_out("erqiwang", options, seed) > 3


def test_the_ai_bids_within_odd_steps_it_used_to_break():
    """bid_step 10 with bid_max 115: the highest allowed bid is 110; the AI picks from the
    engine's list, so it can no longer bid 115 and have it refused."""
    game = game_of("erqiwang")
    rules = game.rules(bid_step=10, bid_max=115)
    for seed in range(40):
        hand = game.deal(rules, seed=seed)
        while hand.view(None).phase == "bidding":
            seat = hand.to_act
            legal = hand.legal_actions(seat)
            action = player("erqiwang").decide(hand.view(seat), legal)
            assert action in legal
            hand.apply(action)
        bids = [p for _, p in hand.view(None).bids if p is not None]
        assert all(p % 10 == 0 and p <= 110 for p in bids)


def test_a_refused_action_is_refused_by_check_too():
    game = game_of("erqiwang")
    hand = game.deal(game.rules(), seed=1)
    seat = hand.to_act
    other = (seat + 1) % 4
    try:
        hand.check(Timeout(other))
    except IllegalAction as refusal:
        assert refusal.code == "not_your_turn"
    else:
        raise AssertionError("a time-out of a seat that is not to act was not refused")
