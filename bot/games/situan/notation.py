"""How 四团 writes "n cards of one rank", and every way a player may type it back.

One notation, rank first: ``4×3`` is three 4s. The group table, the private hand, its
buttons, the 亮牌 line, the settlement and the refusals all write it so, and `/play` reads
back everything the bot writes. Suits never matter in 四团, so no suit is written.

Written by the bot (`count_text`):

=========  ==================
``6``      one 6 (a count of 1 is not written)
``6×3``    three 6s
``10×4``   four 10s
``LJ×2``   two small jokers (``小王×2`` in Chinese)
=========  ==================

Read by `/play` (`read_notation`), alone or several in one command (``/play LJ×3 BJ``):

=================================  ==========================================
form                               meaning
=================================  ==========================================
``4×3`` ``4x3`` ``4X3`` ``4*3``    rank, then count: three 4s
``666`` ``1010`` ``LJLJ``          the cards written out: three 6s, two 10s…
``4个2`` ``4 个 2`` ``4個2``       count, then rank: four 2s (Chinese order)
``三个K`` ``两个A`` ``十个5``      the count in Chinese numerals (一…十二, 两/兩)
``3张K`` ``三張K``                 张/張 as the measure word, the same as 个
``对K`` ``對K``                    a pair of Ks
``小王×3`` ``3个小王`` ``BJ``      jokers: 小王 = LJ, 大王 = BJ, in any form
``S7 H7``                          suited cards: the suits are ignored
=================================  ==========================================

The two orders cannot be confused: ``×`` (or x, X, *) always has the rank before it and the
count after it; 个/張 always has the count before it and the rank after it, as Chinese says it.
A count is 1 to 12 (no one holds more of a rank).
"""

from __future__ import annotations

import re

RANK_PATTERN = r"(?:10|[3-9]|[TJQKA2]|LJ|BJ|小王|大王)"
MOST_OF_A_RANK = 12

CHINESE_COUNTS = {
    "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
    "八": 8, "九": 9, "十": 10, "十一": 11, "十二": 12,
}  # fmt: skip

_COUNT = r"(?P<count>\d{1,2}|十[一二]?|[一二两兩三四五六七八九])"
_RANK_TIMES = re.compile(rf"(?P<rank>{RANK_PATTERN})[×xX*](?P<count>\d{{1,2}})", re.IGNORECASE)
_COUNT_OF = re.compile(rf"{_COUNT}[个個张張](?P<rank>{RANK_PATTERN})", re.IGNORECASE)
_PAIR_OF = re.compile(rf"[对對](?P<rank>{RANK_PATTERN})", re.IGNORECASE)
_AROUND_JOINERS = re.compile(r"\s*([×*个個张張])\s*|(?<=\d)\s+([xX])\s+(?=\d)")
_SEPARATORS = re.compile(r"[\s,，、]+")

FULL_WIDTH = str.maketrans("０１２３４５６７８９ＸＸｘ＊", "0123456789XXx*")


class CountOutOfRange(ValueError):
    """``7×13``, ``0个5``: a notation token whose count no one can hold."""

    def __init__(self, token: str) -> None:
        super().__init__(token)
        self.token = token


def count_text(rank_name: str, count: int) -> str:
    """``rank_name`` ``count`` times in the notation: ``7×5``; a single card is its rank."""
    return rank_name if count == 1 else f"{rank_name}×{count}"


def read_notation(text: str) -> list[str]:
    """The tokens of ``text``, each notation token spelled out as its ranks (``4×3`` →
    ``4 4 4``), anything else as typed for `engine.actions.read_play` to read (and to name,
    when it is not a card). Raises `CountOutOfRange` for a count outside 1–12."""
    joined = _AROUND_JOINERS.sub(lambda m: m[1] or m[2], text.translate(FULL_WIDTH).strip())
    return [_spelled_out(token) for token in _SEPARATORS.split(joined) if token]


def _spelled_out(token: str) -> str:
    rank: str | None = None
    count = 0
    if found := _RANK_TIMES.fullmatch(token):
        rank, count = found["rank"], int(found["count"])
    elif found := _COUNT_OF.fullmatch(token):
        written = found["count"]
        rank, count = found["rank"], int(written) if written.isdigit() else CHINESE_COUNTS[written]
    elif found := _PAIR_OF.fullmatch(token):
        rank, count = found["rank"], 2
    if rank is None:
        return token
    if not 1 <= count <= MOST_OF_A_RANK:
        raise CountOutOfRange(token)
    return " ".join([rank.upper()] * count)
