"""What a hand keeps between steps to list plays fast (each seat's leads per suit, its trump
threat, its natural throws) must list exactly what a hand that kept nothing lists: after
every step of random games, under the throw and failed-throw options, and in a fork played
on apart from its hand."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from engine.actions import Action, Bury, Play
from engine.cards import ALL_CARDS, parse_cards
from engine.erqiwang import ErqiwangHand, Rules
from engine.erqiwang.leads import _may_hold_safe_throw, threat_of, throw_candidates
from engine.erqiwang.legal import _throw_plays
from engine.erqiwang.order import ORDERS, TRUMP

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


@pytest.mark.parametrize(("preset", "options"), OPTIONS)
def test_the_kept_threat_settles_a_throw_as_the_cards_do(
    preset: str, options: dict[str, Any]
) -> None:
    """The throw pre-test settles most leads from the leader's kept threat (`own_threat`)
    without its cards: it must say what the cards say, for every seat at every step."""
    rules = Rules.from_preset(preset, **options)
    settled_by_threat = 0
    for seed in range(6):
        hand = ErqiwangHand.from_seed(rules, seed, first=seed % 4)
        rng = random.Random(seed)
        while not hand.over:
            for seat in range(4) if hand.phase == "play" else ():
                trumps = hand.suit_cards(seat, TRUMP)
                others = hand.others_threats(seat)
                own = hand.own_threat(seat)
                judged = _may_hold_safe_throw(trumps, hand.order, others, own)
                assert judged == _may_hold_safe_throw(trumps, hand.order, others, None)
                if own[0] < max(top for top, _ in others) and not judged:
                    settled_by_threat += 1
            hand.apply(random_step(hand, rng))
    assert settled_by_threat > 20  # the short way is taken, not only the long one


@pytest.mark.parametrize(
    ("leader", "others", "throw"),
    [
        # Below the others' top trump, two 副7 pairs as high as another's top pair: both safe
        # (a pair is beaten only by a higher one), though the leader's top pair is no higher.
        ("H7 H7 C7 C7 S3", ["BJ D7 D7", "S4", ""], "H7 H7 C7 C7"),
        ("H7 H7 C7 C7 S3", ["BJ S2 S2", "S4", ""], "H7 H7 C7 C7"),
        ("H7 H7 C7 C7 S3", ["BJ S7 S7", "S4", ""], None),  # 正7 pair above: none safe
        ("H7 H7 S3 S4", ["BJ", "S5", "LJ"], None),  # one pair, nothing above the others' top
        ("S3 S4 S5", ["BJ", "", ""], None),  # no pair at all
        ("BJ LJ S3", ["S2 S2", "S4", ""], "BJ LJ"),  # above every other trump: singles safe
        ("H7 C7 S3", ["D7", "S4", ""], "H7 C7"),  # as high as the others' top: safe too
    ],
)
def test_the_throw_pre_test_at_its_edges(leader: str, others: list[str], throw: str | None) -> None:
    """Trump is ♠ (副7 at 13, 副2 at 11, 正2 at 12, 正7 at 14): the kept threat's short way and
    the cards' long way agree where they come closest, and so does the throw listed."""
    order = ORDERS["S"]
    trumps = parse_cards(leader)
    threats = [threat_of(parse_cards(text), order) for text in others]
    own = threat_of(trumps, order)
    pre_test = _may_hold_safe_throw(trumps, order, threats, own)
    assert pre_test == _may_hold_safe_throw(trumps, order, threats, None) == (throw is not None)
    listed = throw_candidates(trumps, order, "trump_if_unbeatable", threats, own)
    assert listed == ([] if throw is None else [tuple(parse_cards(throw))])


def test_what_a_seat_lacks_of_a_play_is_counted_by_suit_as_by_the_whole_hand() -> None:
    """`missing` looks for a play's cards among the seat's cards of their suit (kept by suit):
    it finds what counting the whole hand finds, for held cards, cards held once asked for
    twice, and cards not held."""
    rules = Rules.from_preset("classic")
    judged = {True: 0, False: 0}
    for seed in range(4):
        hand = ErqiwangHand.from_seed(rules, seed, first=seed % 4)
        rng = random.Random(seed)
        while not hand.over:
            if hand.phase == "play":
                for seat in range(4):
                    held = hand.hands[seat]
                    asked = [tuple(rng.sample(ALL_CARDS, 2))]
                    if held:  # a seat that has played its last card holds nothing
                        asked += [tuple(rng.sample(held, min(len(held), 3))), (held[0],) * 2]
                    for cards in asked:
                        short = Counter(cards) - Counter(held)
                        missing = hand.missing(seat, cards)
                        assert Counter(missing) == short
                        judged[not missing] += 1
            hand.apply(random_step(hand, rng))
    assert min(judged.values()) > 100
