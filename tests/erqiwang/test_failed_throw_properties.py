"""Invariants over random 二七王 games with ``failed_throw = smallest``, leaders trying throws
of random trumps often (most of them fail): cards and 200 points conserved at every step,
every game ends settled, replay reproduces it."""

from __future__ import annotations

import json
import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.erqiwang import ErqiwangHand, Rules
from engine.erqiwang.events import ThrowFailed
from engine.erqiwang.record import record_of
from engine.replay import replay_record
from tests.erqiwang.test_properties_and_replay import assert_conserved, assert_views_do_not_leak
from tests.erqiwang.test_properties_and_replay import random_action as random_plain
from tests.record_actions import Action, outcome

presets = st.sampled_from(["classic", "online", "proportional"])


def random_action(hand: ErqiwangHand, rng: random.Random) -> Action:
    """A leader holding trumps tries a throw of a random few of them half the time; anything
    else is the plain game's random action."""
    seat = hand.to_act
    if (hand.phase == "play" and hand.lead_shape is not None) or seat is None:
        return random_plain(hand, rng)
    trumps = hand.trump_held(seat) if hand.phase == "play" else []
    if len(trumps) >= 2 and rng.random() < 0.5:
        return Action(seat, "play", cards=tuple(rng.sample(trumps, rng.randint(2, len(trumps)))))
    return random_plain(hand, rng)


def play_out(hand: ErqiwangHand, rng: random.Random, check=None) -> list[object]:
    events: list[object] = []
    for _ in range(1000):
        if hand.over:
            return events
        events += hand.apply(random_action(hand, rng))
        if check is not None:
            check(hand)
    raise AssertionError("the hand does not end")


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), preset=presets)
def test_cards_and_points_are_conserved_with_failed_throws_at_every_step(seed, preset):
    hand = ErqiwangHand.from_seed(
        Rules.from_preset(preset, failed_throw="smallest"), seed, first=seed % 4
    )

    def check(h: ErqiwangHand) -> None:
        assert_conserved(h)
        assert_views_do_not_leak(h)

    play_out(hand, random.Random(seed), check)
    result = outcome(hand)
    assert result is not None
    if not result.get("redeal"):
        assert sum(Fraction(x) for x in result["total"]) == 0
        if not result["surrendered"]:
            trick_points = sum(c.points for c in hand.played_cards)
            assert trick_points + result["bottom_points"] == 200


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), preset=presets)
def test_every_game_with_failed_throws_ends_and_replays_to_the_same_result(seed, preset):
    rules = Rules.from_preset(preset, failed_throw="smallest")
    hand = ErqiwangHand.from_seed(rules, seed, first=seed % 4)
    play_out(hand, random.Random(seed ^ 0x7F))
    output = replay_record(json.loads(json.dumps(record_of(hand))))
    assert all(v["ok"] for v in output["actions"]) and output["over"]
    assert output["result"] == outcome(hand)


def test_the_random_games_do_fail_throws():
    failures = 0
    for seed in range(20):
        hand = ErqiwangHand.from_seed(Rules.from_preset("classic", failed_throw="smallest"), seed)
        failures += sum(isinstance(e, ThrowFailed) for e in play_out(hand, random.Random(seed)))
    assert failures >= 20
