"""亮牌 (show hand): a player starts a show, the pair see each other's hands, and the
initiator picks whose hand is revealed to the table for the rest of the hand."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import PickShow, StartShow
from engine.errors import IllegalAction
from engine.situan.events import HandRevealed, ShowStarted, SituanEvent
from engine.situan.phases import PLAY, SHOW_PICK

if TYPE_CHECKING:
    from engine.situan.hand import SituanHand


def check_start(hand: SituanHand, action: StartShow) -> None:
    hand.check_running()
    if hand.phase != PLAY:
        raise IllegalAction("wrong_phase", "a 亮牌 is waiting for its pick", phase=hand.phase)
    if hand.show_by is not None:
        raise IllegalAction("show_not_allowed", "this hand already had a 亮牌", seat=action.seat)
    if not hand.held[action.seat]:
        raise IllegalAction(
            "show_not_allowed", "a player who is out cannot start a 亮牌", seat=action.seat
        )


def start(hand: SituanHand, action: StartShow) -> list[SituanEvent]:
    check_start(hand, action)
    seat = action.seat
    events: list[SituanEvent] = []
    hand.own_action(seat, events)
    partner = (seat + 2) & 3
    hand.show_by = seat
    hand.show_seen = {seat: hand.cards_of(partner), partner: hand.cards_of(seat)}
    hand.phase = SHOW_PICK
    events.append(ShowStarted(seat, partner))
    return events


def check_pick(hand: SituanHand, action: PickShow) -> None:
    seat, reveal = action.seat, action.reveal
    if not isinstance(reveal, int) or isinstance(reveal, bool) or not 0 <= reveal < 4:
        raise IllegalAction("bad_action", "reveal names a seat", reveal=reveal)
    hand.check_running()
    if hand.phase != SHOW_PICK:
        raise IllegalAction("wrong_phase", "no 亮牌 is waiting for a pick", phase=hand.phase)
    if seat != hand.show_by:
        raise IllegalAction(
            "not_your_turn", f"seat {hand.show_by} picks the revealed hand",
            seat=seat, turn=hand.show_by,
        )  # fmt: skip
    if reveal not in (seat, (seat + 2) & 3) or not hand.held[reveal]:
        raise IllegalAction(
            "show_not_allowed",
            "the revealed hand is yours or your partner's, and must hold cards",
            reveal=reveal,
        )


def pick(hand: SituanHand, action: PickShow) -> list[SituanEvent]:
    check_pick(hand, action)
    events: list[SituanEvent] = []
    hand.own_action(action.seat, events)
    reveal(hand, action.reveal, events)
    return events


def reveal(hand: SituanHand, seat: int, events: list[SituanEvent]) -> None:
    hand.revealed = seat
    hand.phase = PLAY
    events.append(HandRevealed(seat, hand.cards_of(seat)))
