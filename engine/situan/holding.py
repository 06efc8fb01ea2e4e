"""One 四团 seat's cards and the plays they make, kept as the seat plays (`Holding`)."""

from __future__ import annotations

from itertools import chain
from operator import getitem

from engine.actions import Action
from engine.cards import Card
from engine.situan.combos import (
    BJ_INDEX,
    FOUR_KINGS,
    LJ_INDEX,
    RANK_COUNT,
    RANK_OF_CARD,
    RANKS,
    Combo,
    bomb_order,
)
from engine.situan.legal import KINGS_PLAYS, PLAY_ROWS


class Holding:
    """One seat's cards, and every play they make, kept as the seat plays (`take`): a turn's
    legal plays are cut out of these lists, not searched rank by rank on every turn.

    ``piles``: the seat's cards by rank, each pile in the order dealt; ``counts``: how many of
    each rank (`SituanHand.piles` and `SituanHand.counts` hold these lists). ``leads``:
    every play of one rank, by rank, then size (a lead's plays, four kings aside).
    ``by_size[s][rank]``: the play of ``s`` cards of that rank (s = 1, 2, 3: single, pair,
    triple) while the seat holds that many, else None. ``bombs``: the plays of four or more
    of a rank, by rank, then size, ``bomb_strengths`` their `Combo.bomb_strength`.
    ``kings``: the four kings while the seat holds them, else None. The lists hold plays,
    typed as the actions they are listed among (`legal_actions` extends a copy).
    """

    __slots__ = ("bomb_strengths", "bombs", "by_size", "counts", "kings", "leads", "piles", "seat")

    def __init__(self, seat: int, cards: tuple[Card, ...]) -> None:
        self.seat = seat
        self.piles: list[list[Card]] = [[] for _ in RANKS]
        for c in cards:
            self.piles[RANK_OF_CARD[c]].append(c)
        self.counts = counts = list(map(len, self.piles))
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
        rows = PLAY_ROWS[seat]
        for rank, count in enumerate(counts):
            if count >= 4:
                self.bombs += rows[rank][4 : count + 1]  # type: ignore[arg-type]
                self.bomb_strengths += _BOMB_STRENGTHS[rank][count]
        holds_kings = counts[LJ_INDEX] == 3 and counts[BJ_INDEX]
        self.kings: Action | None = KINGS_PLAYS[seat] if holds_kings else None

    def fork(self) -> Holding:
        """A copy that plays on alone: its own piles, counts and lists, of the same shared
        plays."""
        twin = object.__new__(Holding)
        twin.seat, twin.kings = self.seat, self.kings
        twin.piles = [pile.copy() for pile in self.piles]
        twin.counts = self.counts.copy()
        twin.leads = self.leads.copy()
        twin.by_size = [sized.copy() for sized in self.by_size]
        twin.bombs = self.bombs.copy()
        twin.bomb_strengths = self.bomb_strengths.copy()
        return twin

    def __reduce__(self) -> tuple[object, tuple[int, list[list[Card]], list[int]]]:
        """Unpickled (or deep-copied) as made again from its piles: the plays it lists must
        be the shared ones (`engine.situan.legal.PLAYS`), which the hand knows by identity."""
        return (_restored, (self.seat, self.piles, self.counts))

    def take(self, rank: int, size: int, cards: tuple[Card, ...] | None) -> tuple[Card, ...]:
        """The seat plays ``size`` cards of ``rank``: ``cards`` when named, else the top of
        the pile (the last dealt first). Its count drops, and its plays of that rank with more
        cards than are left go. Returns the cards taken."""
        pile = self.piles[rank]
        if cards is None:
            cards = tuple(pile[: -size - 1 : -1])  # the top ``size`` cards, as popped one by one
            del pile[-size:]
        else:
            for c in cards:
                pile.remove(c)
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
        return cards

    def beating(self, last: Combo | None) -> list[Action]:
        """The plays that may follow ``last`` (None: that may lead), in listing order: one
        rank's by rank, then size; the bombs after the plays of ``last``'s kind; four kings
        last."""
        if last is None:
            plays = self.leads.copy()
        elif last.is_bomb:
            weakest = last.bomb_strength
            plays = (
                [
                    bomb
                    for bomb, strength in zip(self.bombs, self.bomb_strengths, strict=True)
                    if strength > weakest
                ]
                if self.bombs  # most seats hold none (no list to build over nothing)
                else []
            )
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


def _restored(seat: int, piles: list[list[Card]], counts: list[int]) -> Holding:
    """A holding made again from its piles, keeping the piles and counts given: the hand
    holds the same lists (`SituanHand.piles`, `SituanHand.counts`)."""
    holding = Holding(seat, tuple(chain.from_iterable(piles)))
    holding.piles, holding.counts = piles, counts
    return holding


_RUNS: tuple[list[tuple[tuple[Action, ...], ...]], ...] = tuple(
    [
        tuple(tuple(p for p in row[1 : count + 1] if p is not None) for count in range(13))
        for row in rows
    ]
    for rows in PLAY_ROWS
)
"""``[seat][rank][count]``: the seat's plays of ``rank`` when it holds ``count`` of them, by
size (`Holding.leads` as dealt)."""
_SIZED_BY_COUNT = tuple(
    [
        [tuple(row[size] if count >= size else None for count in range(13)) for row in rows]
        for size in range(4)
    ]
    for rows in PLAY_ROWS
)
"""``[seat][size][rank][count]``: the seat's play of ``size`` cards of ``rank`` (1 to 3) when it
holds ``count`` of them, else None (`Holding.by_size` as dealt)."""
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
