"""What a hand keeps between steps to list plays fast (each seat's leads per suit, its trump
threat, its natural throws) must list exactly what a hand that kept nothing lists: after
every step of random games, under the throw and failed-throw options, and in a fork played
on apart from its hand."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.actions import Action, Bury, Play
from engine.erqiwang import ErqiwangHand, Rules
from engine.erqiwang.leads import threat_of
from engine.erqiwang.legal import _throw_plays
from engine.erqiwang.order import TRUMP

OPTIONS: list[tuple[str, dict[str, Any]]] = [
    ("classic", {}),
    ("classic", {"failed_throw": "smallest"}),
    ("classic", {"throw": "trump_when_others_void", "failed_throw": "smallest"}),
    ("online", {}),
    ("one_deck", {"failed_throw": "smallest"}),
]


def kept_nothing(hand: ErqiwangHand) -> ErqiwangHand:
    """A copy of the hand with every kept listing and threat dropped or made afresh."""
    cold = hand.fork()
    cold.leads = [None] * 4
    cold.throws = [None] * 4
    cold.throws_current = [False] * 4
    cold._threats = [threat_of(cold.suit_cards(s, TRUMP), cold.order) for s in range(4)]
    return cold


def listings(hand: ErqiwangHand) -> list[list[Action]]:
    return [list(hand.legal_actions(seat)) for seat in range(4)]


def throws(hand: ErqiwangHand) -> list[list[Play]]:
    """Every seat's natural throws as if it led now (judged at every step, not only at its
    leads, so that throws kept too long would show)."""
    return [
        _throw_plays(hand, seat, trumps) if len(trumps) >= 2 else []
        for seat in range(4)
        for trumps in (hand.suit_cards(seat, TRUMP),)
    ]


def random_step(hand: ErqiwangHand, rng: random.Random) -> Action:
    seat = hand.to_act
    assert seat is not None
    if hand.phase == "bury":
        return Bury(seat, tuple(rng.sample(hand.hands[seat], hand.bottom_size)))
    actions = list(hand.legal_actions(seat))
    return actions[rng.randrange(len(actions))]


@pytest.mark.parametrize(("preset", "options"), OPTIONS)
def test_kept_listings_are_what_a_fresh_hand_lists(preset: str, options: dict[str, Any]) -> None:
    rules = Rules.from_preset(preset, **options)
    for seed in range(6):
        hand = ErqiwangHand.from_seed(rules, seed, first=seed % 4)
        rng = random.Random(seed)
        while not hand.over:
            if hand.phase == "play":
                assert listings(hand) == listings(kept_nothing(hand))
                assert throws(hand) == throws(kept_nothing(hand))
                assert hand._threats == kept_nothing(hand)._threats
            hand.apply(random_step(hand, rng))


def test_a_fork_played_on_leaves_its_hand_listing_as_before() -> None:
    rules = Rules.from_preset("classic")
    for seed in range(6):
        hand = ErqiwangHand.from_seed(rules, seed, first=seed % 4)
        rng = random.Random(seed)
        while not hand.over:
            if hand.phase == "play" and rng.random() < 0.2:
                before = listings(hand)
                twin = hand.fork()
                for _ in range(8):
                    if twin.over:
                        break
                    twin.apply(random_step(twin, rng))
                assert listings(hand) == before == listings(kept_nothing(hand))
            hand.apply(random_step(hand, rng))
