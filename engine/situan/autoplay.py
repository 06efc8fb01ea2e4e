"""Time-outs and 托管 in 四团: the table acts for a seat whose time is up (a pass, the
automatic lead, or the 亮牌 default: no consent, the initiator's hand), and the time-outs of
``timeouts_for_auto`` put the seat on 托管."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Auto, Timeout
from engine.errors import IllegalAction
from engine.events import AutoChanged, count_time_out
from engine.situan import rounds, show
from engine.situan.events import SituanEvent
from engine.situan.legal import auto_lead
from engine.situan.phases import PLAY

if TYPE_CHECKING:
    from engine.situan.hand import SituanHand


def check_timeout(hand: SituanHand, action: Timeout) -> None:
    hand.check_running()
    actor = hand.to_act
    if action.seat != actor:
        raise IllegalAction(
            "not_your_turn", f"it is seat {actor}'s turn", seat=action.seat, turn=actor
        )


def timeout(hand: SituanHand, action: Timeout) -> list[SituanEvent]:
    """The table acts for the seat: a time-out, unless the seat is on 托管 already (then
    托管 is playing for it, which counts no time-out)."""
    check_timeout(hand, action)
    seat = action.seat
    events: list[SituanEvent] = [
        *count_time_out(hand.timeouts, hand.auto, seat, hand.rules.timeouts_for_auto)
    ]
    if hand.phase != PLAY:  # a 亮牌 waits on the seat
        show.time_out(hand, events)
    elif hand.round_combo is not None:
        rounds.record_pass(hand, seat, events)
    else:
        combo, cards = auto_lead(hand, seat)
        rounds.place(hand, seat, combo, cards, events)
    return events


def check_auto(hand: SituanHand, action: Auto) -> None:
    if not isinstance(action.on, bool):
        raise IllegalAction("bad_action", "auto needs on: true or false", on=action.on)
    hand.check_running()


def set_auto(hand: SituanHand, action: Auto) -> list[SituanEvent]:
    check_auto(hand, action)
    if hand.auto[action.seat] == action.on:
        return []
    hand.auto[action.seat] = action.on
    return [AutoChanged(action.seat, action.on)]
