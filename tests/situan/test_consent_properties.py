"""Invariants over random 四团 games with ``show_consent = partner``: cards and 300 points
conserved at every step, every game ends settled, replay reproduces it, no view leaks — with
shows asked, accepted, refused and timed out often."""

from __future__ import annotations

import json
import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import AnswerShow
from engine.replay import replay_record
from engine.situan import Rules, SituanHand
from engine.situan.record import record_of
from engine.situan.show import picker
from tests.record_actions import Action, outcome
from tests.situan.test_properties import (
    assert_cards_conserved,
    assert_points_conserved,
    assert_views_do_not_leak,
)
from tests.situan.test_properties import play_out as plain_play_out
from tests.situan.test_properties import random_action as random_play

rule_options = st.fixed_dictionaries(
    {
        "show_consent": st.just("partner"),
        "show_multiplier": st.sampled_from([1, 2]),
        "lead_after_out": st.sampled_from(["next", "partner"]),
        "early_end": st.booleans(),
    }
)


def random_action(hand: SituanHand, rng: random.Random) -> Action:
    """An answer or a pick while a 亮牌 waits (or its time-out), a show asked now and then by
    a seat that may ask, else a random play, pass, time-out or 托管."""
    if hand.phase == "show_consent":
        partner = hand.to_act
        assert partner is not None
        if rng.random() < 0.25:
            return Action(partner, "timeout")
        return AnswerShow(partner, rng.random() < 0.5)
    if hand.phase == "show_pick":
        chooser = picker(hand)
        assert chooser is not None and hand.show_by is not None
        choices = [s for s in (hand.show_by, (hand.show_by + 2) & 3) if hand.held[s]]
        if rng.random() < 0.3:
            return Action(chooser, "timeout")
        return Action(chooser, "show_pick", reveal=rng.choice(choices))
    askers = [s for s in hand.holding() if not hand.show_refused[s]]
    if hand.show_by is None and askers and rng.random() < 0.03:
        return Action(rng.choice(askers), "show_start")
    while True:  # the plain game's actions, without its own (unconsented) show starts
        action = random_play(hand, rng)
        if action.act != "show_start":
            return action


def play_out(hand: SituanHand, rng: random.Random, check=None) -> int:
    """The plain game's `play_out`, with this file's consent-aware choices."""
    return plain_play_out(hand, rng, check, choose=random_action)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), options=rule_options)
def test_cards_and_points_are_conserved_with_consent_at_every_step(seed, options):
    hand = SituanHand.from_seed(Rules.from_preset("nanchang", **options), seed)

    def check(h: SituanHand) -> None:
        assert_cards_conserved(h)
        assert_points_conserved(h)
        assert_views_do_not_leak(h)

    play_out(hand, random.Random(seed), check)
    result = outcome(hand)
    assert result is not None and sorted(result["finish"]) == [0, 1, 2, 3]
    assert sum(Fraction(x) for x in result["total"]) == 0
    if result["ended_by"] == "points":
        assert result["team_points"]["A"] + result["team_points"]["B"] == 300


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), options=rule_options)
def test_every_game_with_consent_ends_and_replays_to_the_same_result(seed, options):
    hand = SituanHand.from_seed(Rules.from_preset("nanchang", **options), seed)
    play_out(hand, random.Random(seed ^ 0xC0))
    output = replay_record(json.loads(json.dumps(record_of(hand))))
    assert all(v["ok"] for v in output["actions"]) and output["over"]
    assert output["result"] == outcome(hand)


def test_the_random_games_do_ask_accept_and_refuse():
    seen: set[str] = set()
    for seed in range(30):
        hand = SituanHand.from_seed(Rules.from_preset("nanchang", show_consent="partner"), seed)
        play_out(hand, random.Random(seed))
        seen.update(
            "accept" if a.accept else "refuse" for a in hand.history if isinstance(a, AnswerShow)
        )
        seen.update("timeout" for a in hand.history if a.act == "timeout")
    assert seen == {"accept", "refuse", "timeout"}
