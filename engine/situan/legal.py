"""What a 四团 seat may do: the combinations that may be played now, and every listed action.

Every possible play of every seat exists once, prebuilt (`PLAYS`), and legal-move generation
hands out these shared values instead of building new ones.
"""

from __future__ import annotations

from itertools import chain
from operator import getitem
from typing import TYPE_CHECKING

from engine.actions import Action, AnswerShow, Auto, Pass, PickShow, Play, StartShow
from engine.cards import Card
from engine.situan import show
from engine.situan.combos import (
    BJ_INDEX,
    COMBO_BY_RANK_SIZE,
    COMBO_BY_RANKS,
    FOUR_KINGS,
    LJ_INDEX,
    RANK_COUNT,
    RANKS,
    Combo,
    bomb_order,
)
from engine.situan.phases import OVER, PLAY, SHOW_CONSENT, SHOW_PICK

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
_PLAY_ROWS = tuple(
    [[None if c is None else PLAYS[seat][c] for c in row] for row in COMBO_BY_RANK_SIZE]
    for seat in range(4)
)
_KINGS_PLAYS = tuple(PLAYS[seat][FOUR_KINGS] for seat in range(4))
PASSES = tuple(Pass(seat) for seat in range(4))
AUTO = tuple((Auto(seat, False), Auto(seat, True)) for seat in range(4))
"""``AUTO[seat][on]``."""
SHOW_STARTS = tuple(StartShow(seat) for seat in range(4))
SHOW_ANSWERS = tuple((AnswerShow(seat, True), AnswerShow(seat, False)) for seat in range(4))
"""``SHOW_ANSWERS[seat]``: accept, then refuse."""


class PlaysHeld:
    """Every play one seat's cards make, kept as the seat plays (`take`): a turn's legal plays
    are then cut out of these lists, not searched rank by rank on every turn.

    ``counts``: the seat's cards per rank (the hand's list, `SituanHand.counts`). ``leads``:
    every play of one rank, by rank, then size (a lead's plays, four kings aside).
    ``by_size[s][rank]``: the play of ``s`` cards of that rank (s = 1, 2, 3: single, pair,
    triple) while the seat holds that many, else None. ``bombs``: the plays of four or more
    of a rank, by rank, then size, ``bomb_strengths`` their `Combo.bomb_strength`.
    ``kings``: the four kings while the seat holds them, else None. The lists hold plays,
    typed as the actions they are listed among (`legal_actions` extends a copy).
    """

    __slots__ = ("bomb_strengths", "bombs", "by_size", "counts", "kings", "leads")

    def __init__(self, seat: int, counts: list[int]) -> None:
        self.counts = counts
        # As dealt, from tables by the count held, in C loops (`map`): a hand is dealt for
        # every forty-odd turns, and a seat's lists are as long as its hand.
        self.leads: list[Action] = list(chain.from_iterable(map(getitem, _RUNS[seat], counts)))
        sized = _SIZED_BY_COUNT[seat]
        self.by_size: list[list[Action | None]] = [
            [],
            list(map(getitem, sized[1], counts)),
            list(map(getitem, sized[2], counts)),
            list(map(getitem, sized[3], counts)),
        ]
        self.bombs: list[Action] = []
        self.bomb_strengths: list[int] = []
        rows = _PLAY_ROWS[seat]
        for rank, count in enumerate(counts):
            if count >= 4:
                self.bombs += rows[rank][4 : count + 1]  # type: ignore[arg-type]
                self.bomb_strengths += _BOMB_STRENGTHS[rank][count]
        holds_kings = counts[LJ_INDEX] == 3 and counts[BJ_INDEX]
        self.kings: Action | None = _KINGS_PLAYS[seat] if holds_kings else None

    def take(self, rank: int, size: int) -> None:
        """The seat plays ``size`` cards of ``rank``: its count drops, and its plays of that
        rank with more cards than are left go."""
        counts = self.counts
        before = counts[rank]
        left = counts[rank] = before - size
        # A rank's run of leads starts after those of the ranks below (one per card), and
        # its plays with more than ``left`` cards end it.
        at = sum(counts[:rank]) + left
        del self.leads[at : at + size]
        for gone in _SINGLES_TO_TRIPLES_GONE[before][left]:
            self.by_size[gone][rank] = None
        if before >= 4:
            smallest = left + 1 if left >= 4 else 4
            at = self.bomb_strengths.index(bomb_order(smallest, rank))
            end = at + before - smallest + 1
            del self.bombs[at:end], self.bomb_strengths[at:end]
        if rank >= LJ_INDEX:
            self.kings = None  # three small jokers and the big one: every one still needed

    def beating(self, last: Combo | None) -> list[Action]:
        """The plays that may follow ``last`` (None: that may lead), in listing order: one
        rank's by rank, then size; the bombs after the plays of ``last``'s kind; four kings
        last."""
        if last is None:
            plays = self.leads.copy()
        elif last.is_bomb:
            weakest = last.bomb_strength
            plays = [
                bomb
                for bomb, strength in zip(self.bombs, self.bomb_strengths, strict=True)
                if strength > weakest
            ]
            if self.kings is not None and FOUR_KINGS.bomb_strength > weakest:
                plays.append(self.kings)
            return plays
        else:
            # The plays of that size of the ranks above: filter drops the empty (None) slots.
            plays = list(filter(None, self.by_size[last.size][last.rank + 1 :]))
            plays += self.bombs
        if self.kings is not None:
            plays.append(self.kings)
        return plays


_RUNS: tuple[list[tuple[tuple[Action, ...], ...]], ...] = tuple(
    [
        tuple(tuple(p for p in row[1 : count + 1] if p is not None) for count in range(13))
        for row in rows
    ]
    for rows in _PLAY_ROWS
)
"""``[seat][rank][count]``: the seat's plays of ``rank`` when it holds ``count`` of them, by
size (`PlaysHeld.leads` as dealt)."""
_SIZED_BY_COUNT = tuple(
    [
        [tuple(row[size] if count >= size else None for count in range(13)) for row in rows]
        for size in range(4)
    ]
    for rows in _PLAY_ROWS
)
"""``[seat][size][rank][count]``: the seat's play of ``size`` cards of ``rank`` (1 to 3) when it
holds ``count`` of them, else None (`PlaysHeld.by_size` as dealt)."""
_BOMB_STRENGTHS = [
    [tuple(bomb_order(size, rank) for size in range(4, count + 1)) for count in range(13)]
    for rank in range(RANK_COUNT)
]
"""``[rank][count]``: the strengths of the bombs ``count`` cards of ``rank`` make, by size."""

_SINGLES_TO_TRIPLES_GONE = [
    [tuple(size for size in (1, 2, 3) if left < size <= before) for left in range(before + 1)]
    for before in range(13)
]
"""``[before][left]``: the sizes 1 to 3 a rank's count no longer reaches when it drops from
``before`` to ``left``."""


def legal_plays(hand: SituanHand) -> list[Combo]:
    """Every combination the seat to move may play now (passing aside: see ``can_pass``)."""
    if hand.phase != PLAY:
        return []
    plays = hand.plays_held[hand.turn].beating(hand.round_combo)
    return [COMBO_OF_PLAY[id(play)] for play in plays]


def legal_actions(hand: SituanHand, seat: int) -> list[Action]:
    """Plays and the pass for the seat to move, then what a seat may do at any time: 托管
    on or off, and a 亮牌 start while none has happened (and the seat's partner has not
    refused one of its). While a 亮牌 waits for the partner's consent: the partner's accept and
    refuse. During a 亮牌 pick: the picker's choices of the hands that still hold cards."""
    phase = hand.phase
    if phase is PLAY and seat == hand.turn:  # most calls: the seat to move, in play
        actions = hand.plays_held[seat].beating(hand.round_combo)
        if hand.round_combo is not None:
            actions.append(PASSES[seat])
        if hand.show_by is None and hand.held[seat] and not hand.show_refused[seat]:
            actions.append(SHOW_STARTS[seat])
        actions.append(AUTO[seat][not hand.auto[seat]])
        return actions
    if phase == OVER:
        return []
    actions = []
    if hand.phase == SHOW_CONSENT:
        if seat == hand.to_act:
            actions += SHOW_ANSWERS[seat]
    elif hand.phase == SHOW_PICK:
        if seat == show.picker(hand):
            actions += show_picks(hand, seat)
    else:
        if seat == hand.turn:
            actions = hand.plays_held[seat].beating(hand.round_combo)
            if hand.round_combo is not None:
                actions.append(PASSES[seat])
        if hand.show_by is None and hand.held[seat] and not hand.show_refused[seat]:
            actions.append(SHOW_STARTS[seat])
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
