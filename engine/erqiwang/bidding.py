"""叫分: bidding for the declarer's seat, and the bottom it takes (亮底牌)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Bid, Pass
from engine.erqiwang.events import (
    BidMade,
    BidPassed,
    BottomShown,
    DeclarerChosen,
    ErqiwangEvent,
    HandEnded,
    Redeal,
)
from engine.erqiwang.phases import BIDDING, TRUMP_PHASE
from engine.erqiwang.result import ErqiwangResult
from engine.errors import IllegalAction

if TYPE_CHECKING:
    from engine.erqiwang.hand import ErqiwangHand


def allowed_bids(hand: ErqiwangHand) -> list[int]:
    """The bids the seat to act may make now (highest first)."""
    return list(bid_range(hand))


def bid_range(hand: ErqiwangHand) -> range:
    """`allowed_bids` as a range: a bid is judged in it without listing them all."""
    rules = hand.rules
    top = rules.bid_max if hand.lowest is None else hand.lowest[0] - rules.bid_step
    top -= top % rules.bid_step
    return range(top, rules.bid_min - 1, -rules.bid_step)  # empty if the top is below bid_min


def may_pass(hand: ErqiwangHand) -> bool:
    first_action = not hand.bids
    return not (hand.rules.first_must_bid and first_action and hand.turn == hand.first)


def refusal(hand: ErqiwangHand, points: int) -> IllegalAction:
    """Why a bid is refused, with the step and the range allowed now as facts."""
    rules = hand.rules
    allowed = allowed_bids(hand)
    facts = {
        "points": points,
        "step": rules.bid_step,
        "highest": allowed[0] if allowed else None,
        "lowest": rules.bid_min,
    }
    if points % rules.bid_step:
        message = f"bids go in steps of {rules.bid_step}"
    elif points > rules.bid_max:
        message = f"the highest bid is {rules.bid_max}"
    elif points < rules.bid_min:
        message = f"the lowest bid is {rules.bid_min}"
    else:
        assert hand.lowest is not None
        message = f"a bid must be at least {rules.bid_step} below {hand.lowest[0]}"
    return IllegalAction("bid_not_allowed", message, **facts)


def check_bid(hand: ErqiwangHand, action: Bid) -> None:
    points = action.points
    if not isinstance(points, int) or isinstance(points, bool):
        raise IllegalAction("bad_action", "a bid is a number of points", points=points)
    hand.require_phase(BIDDING)
    hand.require_turn(action.seat)
    if points not in bid_range(hand):
        raise refusal(hand, points)


def bid(hand: ErqiwangHand, action: Bid) -> list[ErqiwangEvent]:
    check_bid(hand, action)
    events: list[ErqiwangEvent] = []
    hand.own_action(action.seat, events)
    place_bid(hand, action.seat, action.points, events)
    return events


def check_pass(hand: ErqiwangHand, action: Pass) -> None:
    hand.require_phase(BIDDING)
    hand.require_turn(action.seat)
    if not may_pass(hand):
        raise IllegalAction(
            "bid_not_allowed",
            "the first bidder must bid",
            seat=action.seat,
            step=hand.rules.bid_step,
            highest=hand.rules.bid_max,
            lowest=hand.rules.bid_min,
            must_bid=True,
        )


def pass_bid(hand: ErqiwangHand, action: Pass) -> list[ErqiwangEvent]:
    check_pass(hand, action)
    events: list[ErqiwangEvent] = []
    hand.own_action(action.seat, events)
    place_pass(hand, action.seat, events)
    return events


def place_bid(hand: ErqiwangHand, seat: int, points: int, events: list[ErqiwangEvent]) -> None:
    hand.bids.append((seat, points))
    hand.lowest = (points, seat)
    events.append(BidMade(seat, points))
    if points <= hand.rules.bid_min or _others_all_passed(hand, seat):
        _close(hand, events)
    else:
        _next_bidder(hand, seat)


def place_pass(hand: ErqiwangHand, seat: int, events: list[ErqiwangEvent]) -> None:
    hand.bids.append((seat, None))
    hand.passed[seat] = True
    events.append(BidPassed(seat))
    if all(hand.passed):
        hand.end()
        hand.result = ErqiwangResult(redeal=True)
        events += [Redeal(), HandEnded(hand.result)]
    elif hand.lowest is not None and _others_all_passed(hand, hand.lowest[1]):
        _close(hand, events)
    else:
        _next_bidder(hand, seat)


def _others_all_passed(hand: ErqiwangHand, seat: int) -> bool:
    passed = hand.passed
    return passed.count(True) - passed[seat] == 3  # the three others, counted without a loop


def _next_bidder(hand: ErqiwangHand, seat: int) -> None:
    for step in (1, 2, 3):
        nxt = (seat + step) & 3
        if not hand.passed[nxt]:
            hand.pass_turn(nxt)
            return


def _close(hand: ErqiwangHand, events: list[ErqiwangEvent]) -> None:
    assert hand.lowest is not None
    hand.bid, hand.declarer = hand.lowest
    events.append(DeclarerChosen(hand.declarer, hand.bid, tuple(hand.bids), hand.deal.bottom))
    hand.add_cards(hand.declarer, hand.deal.bottom)
    events.append(BottomShown(hand.declarer, hand.deal.bottom))
    hand.phase = TRUMP_PHASE
    hand.pass_turn(hand.declarer)
