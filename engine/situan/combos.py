"""四团 combinations (牌型) and which beats which.

Suits never matter, so a combination is a rank and a size. Every possible combination exists
once, prebuilt, and is looked up by its sorted rank indices; legal-move generation hands out
these shared objects instead of building new ones.
"""

from __future__ import annotations

from engine.cards import ALL_CARDS, JOKER_RANKS, NATURAL_RANKS

RANKS: tuple[str, ...] = NATURAL_RANKS + JOKER_RANKS
"""四团 rank order, low to high: 3 … A 2 LJ BJ."""
RANK_INDEX = {rank: i for i, rank in enumerate(RANKS)}
RANK_COUNT = len(RANKS)
LJ_INDEX = RANK_INDEX["LJ"]
BJ_INDEX = RANK_INDEX["BJ"]
RANK_OF_CARD = {c: RANK_INDEX[c.rank] for c in ALL_CARDS}
"""The rank index of each card (cards hash by identity: a look-up in C)."""
COPIES = [12] * len(NATURAL_RANKS) + [3, 1]
"""How many of each rank the 160-card deck holds."""

RANK_POINTS = [5 if r == "5" else 10 if r in ("10", "K") else 0 for r in RANKS]

SINGLE, PAIR, TRIPLE, BOMB, KINGS = "single", "pair", "triple", "bomb", "kings"

_CHINESE_COUNTS = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二"]


def bomb_order(size: int, rank: int) -> int:
    """A bomb's place among bombs, as one int: size first, then rank (``rank`` is
    `RANK_COUNT` for four kings, above every rank of four cards). Sizes and ranks are below
    16, so the int orders as the pair ``(size, rank)`` does."""
    return size * 16 + rank


class Combo:
    """One 四团 combination: ``kind`` (single, pair, triple, bomb, kings), ``rank`` and ``size``.

    ``ranks`` holds the rank index of every card, sorted; ``bomb_key`` orders bombs (size first,
    then rank; four kings rank above every 4-card bomb), and ``bomb_strength`` is the same order
    as one int (`bomb_order`: ints compare faster than tuples); ``dun`` is what the play
    earns as 墩 (``7``…``12``, ``"LJ3"``, ``"KINGS4"``) or None.
    """

    __slots__ = (
        "beaten",
        "bomb_key",
        "bomb_strength",
        "dun",
        "is_bomb",
        "kind",
        "points",
        "rank",
        "ranks",
        "size",
    )

    def __init__(self, kind: str, rank: int, size: int) -> None:
        self.kind = kind
        self.rank = rank
        self.size = size
        if kind == KINGS:
            self.ranks: tuple[int, ...] = (LJ_INDEX, LJ_INDEX, LJ_INDEX, BJ_INDEX)
        else:
            self.ranks = (rank,) * size
        self.is_bomb = kind in (BOMB, KINGS)
        self.bomb_key = (4, RANK_COUNT) if kind == KINGS else (size, rank)
        self.bomb_strength = bomb_order(*self.bomb_key)
        self.dun: int | str | None = None
        if kind == KINGS:
            self.dun = "KINGS4"
        elif kind == TRIPLE and rank == LJ_INDEX:
            self.dun = "LJ3"
        elif kind == BOMB and size >= 7:
            self.dun = size
        self.points = sum(RANK_POINTS[r] for r in self.ranks)
        self.beaten: frozenset[Combo] = frozenset()
        """Every combination this one `beats` (filled in once all exist): a set look-up for
        a play checked against the round's."""

    def beats(self, other: Combo) -> bool:
        """Whether this play beats ``other`` as the last play of the round."""
        if other.is_bomb:
            return self.is_bomb and self.bomb_strength > other.bomb_strength
        return self.is_bomb or (self.kind == other.kind and self.rank > other.rank)

    def rank_text(self) -> str:
        return "".join(RANKS[r] for r in self.ranks)

    def name(self) -> str:
        """The way players say it: 单张7, 对7, 三个7, 五个3, 四个王."""
        rank = RANKS[self.rank]
        if self.kind == KINGS:
            return "四个王"
        if self.kind == SINGLE:
            return f"单张{rank}"
        if self.kind == PAIR:
            return f"对{rank}"
        return f"{_CHINESE_COUNTS[self.size]}个{rank}"

    def __repr__(self) -> str:
        return f"Combo({self.rank_text()!r})"

    def __reduce__(self) -> tuple[object, tuple[tuple[int, ...]]]:
        """A copy or an unpickled combination is the shared one (`combo_of_ranks`): what beats
        what is looked up by identity (``beaten``), as a listed play's combination is."""
        return (combo_of_ranks, (self.ranks,))


def _build_table() -> tuple[list[list[Combo | None]], Combo, dict[tuple[int, ...], Combo]]:
    by_rank_size: list[list[Combo | None]] = []
    for rank in range(RANK_COUNT):
        row: list[Combo | None] = [None]
        for size in range(1, 13):
            if size > COPIES[rank]:
                row.append(None)
                continue
            kind = {1: SINGLE, 2: PAIR, 3: TRIPLE}.get(size, BOMB)
            row.append(Combo(kind, rank, size))
        by_rank_size.append(row)
    kings = Combo(KINGS, LJ_INDEX, 4)
    by_ranks = {c.ranks: c for row in by_rank_size for c in row if c is not None}
    by_ranks[kings.ranks] = kings
    for combo in by_ranks.values():
        combo.beaten = frozenset(other for other in by_ranks.values() if combo.beats(other))
    return by_rank_size, kings, by_ranks


COMBO_BY_RANK_SIZE, FOUR_KINGS, COMBO_BY_RANKS = _build_table()
"""``COMBO_BY_RANK_SIZE[rank][size]``; `FOUR_KINGS`; `COMBO_BY_RANKS[sorted rank indices]`."""

BOMBS_STRONGEST_FIRST: tuple[Combo, ...] = tuple(
    sorted(
        [c for row in COMBO_BY_RANK_SIZE for c in row if c is not None and c.is_bomb]
        + [FOUR_KINGS],
        key=lambda c: c.bomb_key,
        reverse=True,
    )
)


def combo_of_ranks(ranks: list[int] | tuple[int, ...]) -> Combo | None:
    """The combination these rank indices make, or None when they make none."""
    return COMBO_BY_RANKS.get(tuple(sorted(ranks)))
