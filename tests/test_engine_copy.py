"""A hand's copies play as the hand does: its fork, `copy.copy`, `copy.deepcopy` and a pickled
and loaded hand list, check and apply exactly as the original, and play on without touching
it — over whole random games of every preset of both games.

A copy made field by field used to hold copies of the values the engine knows by identity (四团's
prebuilt combinations and plays): it refused plays the hand listed ("对4 does not beat 对3")
and could not list its own."""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable

import pytest

from engine import GAME_NAMES, game_of
from engine.actions import Action, Timeout
from engine.errors import IllegalAction
from engine.game import AnyHand

COPIERS: dict[str, Callable[[AnyHand], AnyHand]] = {
    "fork": lambda hand: hand.fork(),
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
    "pickle": lambda hand: pickle.loads(pickle.dumps(hand)),
}
HANDS_PER_PRESET = 2
COPY_EVERY = 9
"""Decisions between copies: each copy plays the rest of the hand beside the original."""

PRESETS = [(name, preset) for name in GAME_NAMES for preset in game_of(name).presets]


def refusal(hand: AnyHand, action: Action) -> str | None:
    try:
        hand.check(action)
    except IllegalAction as refused:
        return str(refused)
    return None


def choose(hand: AnyHand, rng: random.Random) -> Action:
    """A random listed action; the 二七王 bury, which is not listed, as the time-out makes it."""
    seat = hand.to_act
    assert seat is not None
    if getattr(hand, "phase", None) == "bury":
        return Timeout(seat)
    return rng.choice(list(hand.legal_actions(seat)))


def assert_plays_alike(copied: AnyHand, hand: AnyHand, how: str) -> None:
    """The copy lists what the hand lists for every seat, and accepts each listed action
    of the seat to act as the hand does."""
    assert copied.to_act == hand.to_act, how
    for seat in range(4):
        listed = list(hand.legal_actions(seat))
        assert list(copied.legal_actions(seat)) == listed, (how, seat)
        assert copied.cards_of(seat) == hand.cards_of(seat), (how, seat)
        if seat == hand.to_act:
            for action in listed:
                assert refusal(copied, action) == refusal(hand, action), (how, action)


@pytest.mark.parametrize(("game_name", "preset"), PRESETS)
def test_copies_of_a_hand_play_as_the_hand_over_whole_random_games(
    game_name: str, preset: str
) -> None:
    game = game_of(game_name)
    rules = game.rules(preset)
    copies_made = 0
    for seed in range(HANDS_PER_PRESET):
        rng = random.Random(f"{game_name} {preset} {seed}")
        hand = game.deal(rules, seed=seed)
        beside: list[tuple[str, AnyHand]] = []
        step = 0
        while not hand.over:
            if step % COPY_EVERY == seed % COPY_EVERY:
                beside = [(how, made(hand)) for how, made in COPIERS.items()]
                copies_made += len(beside)
            for how, copied in beside:
                assert_plays_alike(copied, hand, how)
            action = choose(hand, rng)
            events = hand.apply(action)
            for how, copied in beside:
                assert copied.apply(action) == events, (how, action)
            step += 1
        for how, copied in beside:
            assert copied.over and copied.result == hand.result, how
        # Nothing the copies did reached the hand: it is what its record replays to.
        replayed = game.hand_from_record(hand.start_record())
        for action in hand.history:
            replayed.apply(action)
        assert replayed.result == hand.result
        assert replayed.history == hand.history
    assert copies_made >= 3 * HANDS_PER_PRESET
