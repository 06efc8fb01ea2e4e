"""What a 四团 seat may do: the combinations that may be played now, and every listed action.

Every possible play of every seat exists once, prebuilt (`PLAYS`), and legal-move generation
hands out these shared values instead of building new ones.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Action, AnswerShow, Auto, Pass, PickShow, Play, StartShow
from engine.cards import Card
from engine.situan import show
from engine.situan.combos import (
    COMBO_BY_RANK_SIZE,
    COMBO_BY_RANKS,
    FOUR_KINGS,
    RANK_COUNT,
    RANKS,
    Combo,
)
from engine.situan.phases import OVER, PLAY, SHOW_CONSENT

if TYPE_CHECKING:
    from engine.situan.hand import SituanHand

RANK_NAMES_OF: dict[Combo, tuple[str, ...]] = {
    combo: tuple(RANKS[r] for r in combo.ranks) for combo in COMBO_BY_RANKS.values()
}
COMBO_BY_RANK_NAMES: dict[tuple[str, ...], Combo] = {v: k for k, v in RANK_NAMES_OF.items()}
PLAYS: tuple[dict[Combo, Play], ...] = tuple(
    {combo: Play(seat, ranks=names) for combo, names in RANK_NAMES_OF.items()} for seat in range(4)
)
"""``PLAYS[seat][combo]``: the play of that combination by that seat."""
COMBO_OF_PLAY: dict[int, Combo] = {
    id(play): combo for plays in PLAYS for combo, play in plays.items()
}
"""The combination of each prebuilt play, by identity: applying a listed play looks
nothing up by value."""
PLAY_ROWS = tuple(
    [[None if c is None else PLAYS[seat][c] for c in row] for row in COMBO_BY_RANK_SIZE]
    for seat in range(4)
)
"""``PLAY_ROWS[seat][rank][size]``: that seat's play of ``size`` cards of ``rank`` (None where
the deck has too few)."""
KINGS_PLAYS = tuple(PLAYS[seat][FOUR_KINGS] for seat in range(4))
"""``KINGS_PLAYS[seat]``: that seat's four kings."""
PASSES = tuple(Pass(seat) for seat in range(4))
AUTO = tuple((Auto(seat, False), Auto(seat, True)) for seat in range(4))
"""``AUTO[seat][on]``."""
SHOW_STARTS = tuple(StartShow(seat) for seat in range(4))
SHOW_ANSWERS = tuple((AnswerShow(seat, True), AnswerShow(seat, False)) for seat in range(4))
"""``SHOW_ANSWERS[seat]``: accept, then refuse."""


def legal_plays(hand: SituanHand) -> list[Combo]:
    """Every combination the seat to move may play now (passing aside: see ``can_pass``)."""
    if hand.phase != PLAY:
        return []
    plays = hand.holdings[hand.turn].beating(hand.round_combo)
    return [COMBO_OF_PLAY[id(play)] for play in plays]


def legal_actions(hand: SituanHand, seat: int) -> list[Action]:
    """Plays and the pass for the seat to move, then what a seat may do at any time: 托管
    on or off, and a 亮牌 start while none has happened (and the seat's partner has not
    refused one of its). While a 亮牌 waits for the partner's consent: the partner's accept and
    refuse. During a 亮牌 pick: the picker's choices of the hands that still hold cards."""
    phase = hand.phase
    if phase is PLAY:  # most calls, and most of them by the seat to move
        if seat == hand.turn:
            last = hand.round_combo
            actions = hand.holdings[seat].beating(last)
            if last is not None:
                actions.append(PASSES[seat])
        else:
            actions = []
        if hand.show_by is None and hand.held[seat] and not hand.show_refused[seat]:
            actions.append(SHOW_STARTS[seat])
    elif phase is OVER:
        return []
    elif phase is SHOW_CONSENT:
        actions = list(SHOW_ANSWERS[seat]) if seat == hand.to_act else []
    else:  # a 亮牌 pick
        actions = show_picks(hand, seat) if seat == show.picker(hand) else []
    actions.append(AUTO[seat][not hand.auto[seat]])
    return actions


def show_picks(hand: SituanHand, seat: int) -> list[Action]:
    """The picker's choices: the 亮牌 pair's hands that still hold cards."""
    assert hand.show_by is not None
    pair = (hand.show_by, show.partner_of(hand.show_by))
    return [PickShow(seat, s) for s in pair if hand.held[s]]


def auto_lead(hand: SituanHand, seat: int) -> tuple[Combo, tuple[Card, ...]]:
    """托管 lead: the lowest single (of that rank, the card the hand lists last)."""
    for rank in range(RANK_COUNT):
        if hand.counts[seat][rank]:
            return COMBO_BY_RANK_SIZE[rank][1], (hand.piles[seat][rank][-1],)  # type: ignore[return-value]
    raise AssertionError("a leader always holds cards")
