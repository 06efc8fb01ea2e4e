"""Building 二七王 hands from literal cards for rule tests."""

from __future__ import annotations

from typing import Any

import pytest

from engine.cards import Card, parse_cards
from engine.erqiwang import Deal, ErqiwangHand, Rules
from engine.erqiwang.events import ErqiwangEvent
from engine.errors import IllegalAction
from tests.record_actions import Action, outcome

FILLER_BOTTOM = "D3 D4 D6 D8 D9 C3 C4 C6"
"""Eight pointless side cards, buried straight back in `playing`."""


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def dealt(
    *hands: str,
    bottom: str = FILLER_BOTTOM,
    first: int = 0,
    preset: str = "classic",
    **options: Any,
) -> ErqiwangHand:
    """A hand in the bidding with the given holdings (any sizes)."""
    deal = Deal(tuple(cards(h) for h in hands), cards(bottom))
    return ErqiwangHand(Rules.from_preset(preset, **options), deal, first)


def playing(
    *hands: str,
    trump: str = "H",
    declarer: int = 0,
    bid: int = 80,
    bottom: str = FILLER_BOTTOM,
    bury: str | None = None,
    preset: str = "classic",
    **options: Any,
) -> ErqiwangHand:
    """A hand ready for its first card: ``declarer`` bid ``bid``, the others passed, trump is
    named and the declarer buried ``bury`` (by default the bottom it took)."""
    hand = dealt(*hands, bottom=bottom, first=declarer, preset=preset, **options)
    hand.apply(Action(declarer, "bid", points=bid))
    for step in (1, 2, 3):
        if hand.phase == "bidding":  # a bid at bid_min closes the bidding by itself
            hand.apply(Action((declarer + step) % 4, "pass"))
    hand.apply(Action(declarer, "trump", suit=trump))
    hand.apply(Action(declarer, "bury", cards=cards(bury or bottom)))
    return hand


def play(hand: ErqiwangHand, seat: int, text: str) -> list[ErqiwangEvent]:
    return hand.apply(Action(seat, "play", cards=cards(text)))


def trick(hand: ErqiwangHand, *plays: str) -> list[ErqiwangEvent]:
    """Four plays from the seat to move on."""
    events: list[ErqiwangEvent] = []
    for text in plays:
        events += play(hand, hand.turn, text)
    return events


def snapshot(hand: ErqiwangHand) -> tuple[object, ...]:
    return (
        hand.phase, hand.turn, tuple(tuple(h) for h in hand.hands), tuple(hand.bids),
        hand.declarer, hand.bid, hand.trump, hand.buried, tuple(hand.trick),
        hand.trick_points_for_defenders, len(hand.history), tuple(hand.timeouts),
        tuple(hand.auto), tuple(sorted(hand.bonuses)), outcome(hand),
    )  # fmt: skip


def refused(hand: ErqiwangHand, action: Action) -> str:
    before = snapshot(hand)
    with pytest.raises(IllegalAction) as refusal:
        hand.apply(action)
    assert snapshot(hand) == before
    assert refusal.value.message
    return refusal.value.code


def refused_play(hand: ErqiwangHand, seat: int, text: str) -> str:
    return refused(hand, Action(seat, "play", cards=cards(text)))
