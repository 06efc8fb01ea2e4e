"""亮牌 (show hand): a player starts a show, the pair see each other's hands, and one of them
picks whose hand is revealed to the table for the rest of the hand.

With ``show_consent = no`` (the default) the initiator alone decides and picks. With
``partner`` the partner must first accept (`answer`): a refusal, or a time-out, cancels the
show and the hand goes on as if it had not been asked; an accepted show goes on as usual,
except that the partner picks the revealed hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import AnswerShow, PickShow, StartShow
from engine.errors import IllegalAction
from engine.situan.events import (
    HandRevealed,
    ShowAnswered,
    ShowAsked,
    ShowStarted,
    SituanEvent,
)
from engine.situan.phases import PLAY, SHOW_CONSENT, SHOW_PICK

if TYPE_CHECKING:
    from engine.situan.hand import SituanHand


def partner_of(seat: int) -> int:
    return (seat + 2) & 3


def needs_consent(hand: SituanHand) -> bool:
    return hand.rules.show_consent == "partner"


def picker(hand: SituanHand) -> int | None:
    """Who picks the revealed hand of the show under way: the initiator, or — when the
    partner's consent is needed — the partner."""
    if hand.show_by is None:
        return None
    return partner_of(hand.show_by) if needs_consent(hand) else hand.show_by


def check_start(hand: SituanHand, action: StartShow) -> None:
    hand.check_running()
    if hand.phase != PLAY:
        raise IllegalAction("wrong_phase", _waiting(hand), phase=hand.phase)
    if hand.show_by is not None:
        raise IllegalAction("show_not_allowed", "this hand already had a 亮牌", seat=action.seat)
    if not hand.held[action.seat]:
        raise IllegalAction(
            "show_not_allowed", "a player who is out cannot start a 亮牌", seat=action.seat
        )
    if hand.show_refused[action.seat]:
        # The opponents would otherwise wait out one request after another.
        raise IllegalAction(
            "show_not_allowed",
            "your partner already refused your 亮牌 in this hand",
            seat=action.seat,
            refused=True,
        )


def _waiting(hand: SituanHand) -> str:
    if hand.phase == SHOW_CONSENT:
        return "a 亮牌 is waiting for the partner's answer"
    return "a 亮牌 is waiting for its pick"


def start(hand: SituanHand, action: StartShow) -> list[SituanEvent]:
    check_start(hand, action)
    seat = action.seat
    events: list[SituanEvent] = []
    hand.own_action(seat, events)
    hand.show_by = seat
    if needs_consent(hand):
        hand.phase = SHOW_CONSENT
        events.append(ShowAsked(seat, partner_of(seat)))
        return events
    open_show(hand, events)
    return events


def open_show(hand: SituanHand, events: list[SituanEvent]) -> None:
    """The pair see each other's hands, and the pick waits."""
    assert hand.show_by is not None
    seat = hand.show_by
    partner = partner_of(seat)
    hand.show_seen = {seat: hand.cards_of(partner), partner: hand.cards_of(seat)}
    hand.phase = SHOW_PICK
    events.append(ShowStarted(seat, partner))


def check_answer(hand: SituanHand, action: AnswerShow) -> None:
    if not isinstance(action.accept, bool):
        raise IllegalAction(
            "bad_action", "show_answer needs accept: true or false", accept=action.accept
        )
    hand.check_running()
    if hand.phase != SHOW_CONSENT:
        raise IllegalAction("wrong_phase", "no 亮牌 is waiting for an answer", phase=hand.phase)
    assert hand.show_by is not None
    partner = partner_of(hand.show_by)
    if action.seat != partner:
        raise IllegalAction(
            "not_your_turn", f"seat {partner} answers the 亮牌", seat=action.seat, turn=partner
        )


def answer(hand: SituanHand, action: AnswerShow) -> list[SituanEvent]:
    check_answer(hand, action)
    events: list[SituanEvent] = []
    hand.own_action(action.seat, events)
    if action.accept:
        assert hand.show_by is not None
        events.append(ShowAnswered(hand.show_by, action.seat, True))
        open_show(hand, events)
    else:
        cancel(hand, events, timed_out=False)
    return events


def cancel(hand: SituanHand, events: list[SituanEvent], timed_out: bool) -> None:
    """A refusal or a time-out: the show did not happen, and the hand goes on."""
    by = hand.show_by
    assert by is not None
    events.append(ShowAnswered(by, partner_of(by), False, timed_out))
    hand.show_refused[by] = True
    hand.show_by = None
    hand.phase = PLAY


def check_pick(hand: SituanHand, action: PickShow) -> None:
    seat, reveal = action.seat, action.reveal
    if not isinstance(reveal, int) or isinstance(reveal, bool) or not 0 <= reveal < 4:
        raise IllegalAction("bad_action", "reveal names a seat", reveal=reveal)
    hand.check_running()
    if hand.phase != SHOW_PICK:
        raise IllegalAction("wrong_phase", "no 亮牌 is waiting for a pick", phase=hand.phase)
    chooser = picker(hand)
    if seat != chooser:
        raise IllegalAction(
            "not_your_turn", f"seat {chooser} picks the revealed hand", seat=seat, turn=chooser
        )
    assert hand.show_by is not None
    if reveal not in (hand.show_by, partner_of(hand.show_by)) or not hand.held[reveal]:
        raise IllegalAction(
            "show_not_allowed",
            "the revealed hand is the initiator's or the partner's, and must hold cards",
            reveal=reveal,
        )


def pick(hand: SituanHand, action: PickShow) -> list[SituanEvent]:
    check_pick(hand, action)
    events: list[SituanEvent] = []
    hand.own_action(action.seat, events)
    reveal(hand, action.reveal, events)
    return events


def time_out(hand: SituanHand, events: list[SituanEvent]) -> None:
    """The table acts for the seat the show waits on: an unanswered request is refused; an
    unmade pick reveals the initiator's own hand."""
    if hand.phase == SHOW_CONSENT:
        cancel(hand, events, timed_out=True)
        return
    assert hand.show_by is not None
    reveal(hand, hand.show_by, events)


def reveal(hand: SituanHand, seat: int, events: list[SituanEvent]) -> None:
    hand.revealed = seat
    hand.phase = PLAY
    events.append(HandRevealed(seat, hand.cards_of(seat)))
