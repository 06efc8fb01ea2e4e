"""What the table plays for a seat (托管 and time-outs): the seeds' "smallest legal card"."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from engine.actions import Timeout
from engine.cards import Card
from engine.erqiwang import bidding, bonus, declaring, tricks
from engine.erqiwang.events import ErqiwangEvent
from engine.erqiwang.follow import smallest_follow
from engine.erqiwang.order import SUIT_ORDER
from engine.erqiwang.phases import BIDDING, BURY, OVER, TRUMP_PHASE, TRUMP_SUITS
from engine.erqiwang.shapes import shape_of
from engine.events import count_time_out

if TYPE_CHECKING:
    from engine.erqiwang.hand import ErqiwangHand


def check_timeout(hand: ErqiwangHand, action: Timeout) -> None:
    hand.require_running()
    hand.require_turn(action.seat)


def timeout(hand: ErqiwangHand, action: Timeout) -> list[ErqiwangEvent]:
    """The table acts for the seat: a time-out, unless the seat is on 托管 already (then
    托管 is playing for it, which counts no time-out). A 冲关 whose window is open is declared
    for the seat before the auto action and again right after it."""
    check_timeout(hand, action)
    seat = action.seat
    events: list[ErqiwangEvent] = [
        *count_time_out(hand.timeouts, hand.auto, seat, hand.rules.timeouts_for_auto)
    ]
    bonus.declare_for_table(hand, seat, events)  # the window is open before the action
    if hand.phase == BIDDING:
        if bidding.may_pass(hand):
            bidding.place_pass(hand, seat, events)
        else:
            bidding.place_bid(hand, seat, bidding.allowed_bids(hand)[0], events)
    elif hand.phase == TRUMP_PHASE:
        declaring.set_trump(hand, auto_trump(hand.hands[seat]), events)
    elif hand.phase == BURY:
        lowest = sorted(hand.hands[seat], key=hand.order.key.__getitem__)[: hand.bottom_size]
        declaring.bury_cards(hand, seat, tuple(lowest), events)
    else:
        cards = smallest_play(hand, seat)
        shape = shape_of(cards, hand.order) if hand.lead_shape is None else None
        tricks.place(hand, seat, cards, shape, events)
    if hand.phase != OVER:
        # …and right after it: an auto-bury opens the declarer's window, declared at once.
        bonus.declare_for_table(hand, seat, events)
    return events


def smallest_play(hand: ErqiwangHand, seat: int) -> tuple[Card, ...]:
    """托管: the smallest legal play (a lead: the lowest single)."""
    cards = hand.hands[seat]
    if hand.lead_shape is None:
        return (min(cards, key=hand.order.key.__getitem__),)
    assert hand.lead_suit is not None
    held = hand.suit_cards(seat, hand.lead_suit)
    return smallest_follow(cards, held, hand.lead_shape, hand.lead_suit, hand.order)


def auto_trump(cards: list[Card]) -> str:
    """托管 trump: the suit with the most cards (its 7s and 2s counted); ties ♠ > ♥ > ♣ > ♦."""
    counts = Counter(c.suit for c in cards if c.suit)
    return max(TRUMP_SUITS, key=lambda s: (counts[s], SUIT_ORDER[s]))
