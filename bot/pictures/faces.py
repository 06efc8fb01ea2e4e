"""The renderer's inputs: plain frozen values, independent of the engine and the host.

They are hashable so that an unchanged picture is found in the cache instead of drawn again,
and they carry text already in the reader's language: the renderer translates nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from bot.pictures.errors import PictureError

Layout = Literal["by_rank", "as_held"]
"""How a hand is laid out: ``by_rank`` — one card per rank, with its count (suits never
matter: 四团) — or ``as_held`` — every card in the order given, suit groups apart (二七王).
Each game's front says which (`bot.games`); the renderer knows no game."""

SUITS = ("S", "H", "C", "D")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
RED_SUITS = frozenset({"H", "D"})
NATURAL_RANKS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
JOKER_RANKS = ("LJ", "BJ")
RANK_ORDER = (*NATURAL_RANKS, *JOKER_RANKS)
"""The rank order low to high (四团's), in which a ``by_rank`` hand lays its ranks out."""

DEFAULT_JOKER_LABELS = {"LJ": "小王", "BJ": "大王"}


@dataclass(frozen=True, slots=True)
class CardFace:
    """What is printed on one card: ``CardFace("10", "H")``, ``CardFace("BJ")``.

    ``suit`` is "" for jokers and for 四团 cards given by rank only. ``label`` replaces the
    joker's printed name (小王/大王 by default), e.g. "Joker" in English.
    """

    rank: str
    suit: str = ""
    label: str = ""

    def __post_init__(self) -> None:
        if self.rank not in RANK_ORDER:
            raise PictureError(f"unknown card rank {self.rank!r}")
        if self.suit and self.suit not in SUITS:
            raise PictureError(f"unknown card suit {self.suit!r}")
        if self.suit and self.rank in JOKER_RANKS:
            raise PictureError(f"a joker has no suit: {self.suit}{self.rank}")

    @property
    def is_joker(self) -> bool:
        return self.rank in JOKER_RANKS

    @property
    def is_red(self) -> bool:
        """Hearts, diamonds and the big joker print red; spades, clubs, the small joker black."""
        return self.suit in RED_SUITS or self.rank == "BJ"

    @property
    def joker_label(self) -> str:
        return self.label or DEFAULT_JOKER_LABELS.get(self.rank, "")

    @classmethod
    def parse(cls, text: str) -> CardFace:
        """A face from the card notation: ``S10``, ``HA``, ``LJ``, or a bare rank ``7``."""
        text = text.strip().upper()
        if text in JOKER_RANKS or text in NATURAL_RANKS:
            return cls(text)
        return cls(text[1:], text[:1])


def faces(text: str) -> tuple[CardFace, ...]:
    """Several faces from space-separated notation: ``faces("S10 H7 LJ")``."""
    return tuple(CardFace.parse(word) for word in text.split())


@dataclass(frozen=True, slots=True)
class HandPicture:
    """A player's private hand, as they hold it.

    ``details`` follow the player's name on the title line (game, seat, hand number: already
    in the player's language). ``breaks`` (``as_held``) are the indexes in ``cards`` where a new
    suit group starts, e.g. after the trumps; the picture leaves a gap there.
    """

    layout: Layout
    player: str
    cards: tuple[CardFace, ...]
    details: tuple[str, ...] = ()
    breaks: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Play:
    """One seat's turn in a trick or round: its cards, or a pass (no cards)."""

    seat: str
    cards: tuple[CardFace, ...] = ()
    won: bool = False
    note: str = ""
    """A short tag after the seat name, e.g. 托管 or 毙."""


@dataclass(frozen=True, slots=True)
class TablePicture:
    """The table after a trick (二七王) or a round (四团): every play in order.

    ``headers`` are lines above the plays (trump, bid, points so far), ``result`` the line
    below (who won), ``points`` the points the winner took, drawn as a badge on their play.
    """

    layout: Layout
    title: str
    plays: tuple[Play, ...]
    headers: tuple[str, ...] = ()
    result: str = ""
    points: int | None = None
    pass_label: str = "不要"
    """The word on a pass, in the reader's language (`bot.i18n` "pass"); the default is the
    zh-Hans text's word, for callers that pass none."""


@dataclass(frozen=True, slots=True)
class SettlementRow:
    """One player's line of a hand's settlement (结算)."""

    player: str
    result: str
    hand_total: Fraction | float
    match_total: Fraction | float
    bonus: str = ""
    """The 墩 / 冲关 line, e.g. "墩 ×2 +1 · 主7冲关 +3"; empty when there is none."""
    winner: bool = False


@dataclass(frozen=True, slots=True)
class SettlementPicture:
    """A hand's settlement: one row per player, winners highlighted."""

    title: str
    rows: tuple[SettlementRow, ...]
    headings: tuple[str, str, str, str] = ("玩家", "结果", "本局", "累计")
    """Column names: player, hand result, this deal's total (本局: 局 is one deal), the running
    match total. The fronts pass them translated; the default is the zh-Hans texts' words."""
    footer: str = ""
