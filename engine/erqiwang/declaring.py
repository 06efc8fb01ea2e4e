"""The declarer's part between bidding and play: trump (主花色), burying (扣底), surrender."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Bury, NameTrump, Surrender
from engine.cards import Card
from engine.erqiwang.events import Buried, ErqiwangEvent, Surrendered, TrumpNamed
from engine.erqiwang.order import ORDERS
from engine.erqiwang.phases import BIDDING, BURY, PLAY, TRUMP_PHASE, TRUMP_SUITS
from engine.errors import IllegalAction

if TYPE_CHECKING:
    from engine.erqiwang.hand import ErqiwangHand


def trump_choices(hand: ErqiwangHand) -> tuple[str, ...]:
    return (*TRUMP_SUITS, "none") if hand.rules.allow_no_trump else TRUMP_SUITS


def check_trump(hand: ErqiwangHand, action: NameTrump) -> None:
    if action.suit not in trump_choices(hand):
        raise IllegalAction(
            "bad_action",
            f"{action.suit!r} is not a trump choice here",
            suit=action.suit,
            choices=list(trump_choices(hand)),
        )
    hand.require_phase(TRUMP_PHASE)
    hand.require_turn(action.seat)


def name_trump(hand: ErqiwangHand, action: NameTrump) -> list[ErqiwangEvent]:
    check_trump(hand, action)
    events: list[ErqiwangEvent] = []
    hand.own_action(action.seat, events)
    set_trump(hand, None if action.suit == "none" else action.suit, events)
    return events


def set_trump(hand: ErqiwangHand, suit: str | None, events: list[ErqiwangEvent]) -> None:
    hand.trump = suit
    hand.trump_named = True
    hand.order = ORDERS[suit]
    hand.phase = BURY
    hand.group_by_suit()
    events.append(TrumpNamed(suit, hand.declarer))


def check_bury(hand: ErqiwangHand, action: Bury) -> None:
    cards = action.cards
    if not isinstance(cards, tuple):
        raise IllegalAction(
            "bad_action", f"bury names {hand.bottom_size} cards", wanted=hand.bottom_size
        )
    hand.require_phase(BURY)
    hand.require_turn(action.seat)
    missing = hand.missing(action.seat, cards)
    if missing:
        raise IllegalAction(
            "not_in_hand",
            f"not in your hand: {' '.join(c.text for c in missing)}",
            seat=action.seat,
            cards=[c.text for c in missing],
            burying=True,
        )
    wanted = hand.bottom_size
    if len(cards) != wanted:
        raise IllegalAction(
            "wrong_count",
            f"bury exactly {wanted} cards, not {len(cards)}",
            count=len(cards),
            wanted=wanted,
            burying=True,
        )


def bury(hand: ErqiwangHand, action: Bury) -> list[ErqiwangEvent]:
    check_bury(hand, action)
    events: list[ErqiwangEvent] = []
    hand.own_action(action.seat, events)
    bury_cards(hand, action.seat, action.cards, events)
    return events


def bury_cards(
    hand: ErqiwangHand, seat: int, cards: tuple[Card, ...], events: list[ErqiwangEvent]
) -> None:
    hand.remove_cards(seat, cards)
    hand.buried = tuple(cards)
    hand.phase = PLAY
    hand.pass_turn(seat)
    events.append(Buried(seat, len(cards)))
    hand.announce_voids(events)


def check_surrender(hand: ErqiwangHand, action: Surrender) -> None:
    hand.require_running()
    if hand.phase == BIDDING or (hand.phase == PLAY and any(hand.has_played)):
        raise IllegalAction(
            "wrong_phase", "surrender is possible from taking the bottom to the first card"
        )
    if action.seat != hand.declarer:
        raise IllegalAction("not_your_turn", "only the declarer may surrender")
    assert hand.bid is not None
    if hand.bid <= hand.rules.surrender_above:
        raise IllegalAction(
            "surrender_not_allowed",
            f"surrender needs a bid above {hand.rules.surrender_above}",
            bid=hand.bid,
            above=hand.rules.surrender_above,
        )


def surrender(hand: ErqiwangHand, action: Surrender) -> list[ErqiwangEvent]:
    check_surrender(hand, action)
    events: list[ErqiwangEvent] = []
    hand.own_action(action.seat, events)
    hand.surrendered = True
    events.append(Surrendered(action.seat))
    hand.finish(events)
    return events
