"""Cards and their one canonical text form (hand-record.md).

A card is a suit and a rank: ``S10``, ``HA``, ``SJ`` (the spade jack). The jokers have no suit:
``LJ`` (小王, little) and ``BJ`` (大王, big). Every distinct card is one shared immutable object,
so cards compare and hash by identity and a deck of several packs is just repeated references.

>>> parse_card("♠10")
Card('S10')
>>> format_cards(parse_cards("s10 小王 大王"))
'S10 LJ BJ'
>>> format_cards(parse_cards(["♥10♠10", "dqDQ"]))
'H10 S10 DQ DQ'
>>> parse_suit("红桃"), parse_suit("无主"), parse_suit("x")
('H', 'none', None)
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.errors import RecordError

SUITS = ("S", "H", "C", "D")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
NATURAL_RANKS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
JOKER_RANKS = ("LJ", "BJ")
RANK_POINTS = {"5": 5, "10": 10, "K": 10}

_SYMBOL_TO_SUIT = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}
_SYMBOL_TO_SUIT.update({"♤": "S", "♡": "H", "♧": "C", "♢": "D"})
_SUIT_OF_LETTER = {**{suit: suit for suit in SUITS}, **_SYMBOL_TO_SUIT}
_VARIATION_SELECTOR = "\ufe0f"
"""Chat clients often send ``♥️`` (the symbol and an emoji variation selector)."""
_SEPARATORS = str.maketrans({",": " ", "，": " ", "、": " ", ";": " ", _VARIATION_SELECTOR: ""})
_SUIT_WORDS = {
    **{suit.lower(): suit for suit in SUITS},
    **_SYMBOL_TO_SUIT,
    "黑桃": "S", "黑": "S", "spade": "S", "spades": "S",
    "红桃": "H", "紅桃": "H", "红心": "H", "紅心": "H", "heart": "H", "hearts": "H",
    "梅花": "C", "草花": "C", "club": "C", "clubs": "C",
    "方块": "D", "方塊": "D", "方片": "D", "diamond": "D", "diamonds": "D",
    "none": "none", "无主": "none", "無主": "none", "全常主": "none", "nt": "none",
}  # fmt: skip
_RANK_ALIASES = {"T": "10"}
_JOKER_ALIASES = {"LJ": "LJ", "BJ": "BJ", "小王": "LJ", "大王": "BJ"}


class Card:
    """One playing card. Build cards with `card()` or `parse_card()`, never directly."""

    __slots__ = ("points", "rank", "suit", "text")

    suit: str
    rank: str
    text: str
    points: int

    def __init__(self, suit: str, rank: str) -> None:
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "text", suit + rank)
        object.__setattr__(self, "points", RANK_POINTS.get(rank, 0))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __repr__(self) -> str:
        return f"Card({self.text!r})"

    def __str__(self) -> str:
        return self.text

    @property
    def is_joker(self) -> bool:
        return self.suit == ""

    def symbol(self) -> str:
        """The card with a suit symbol, for people: ``♠10``, ``LJ``."""
        return SUIT_SYMBOLS[self.suit] + self.rank if self.suit else self.rank

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (parse_card, (self.text,))


_CARDS: dict[str, Card] = {}
for _suit in SUITS:
    for _rank in NATURAL_RANKS:
        _CARDS[_suit + _rank] = Card(_suit, _rank)
for _rank in JOKER_RANKS:
    _CARDS[_rank] = Card("", _rank)

ALL_CARDS: tuple[Card, ...] = tuple(_CARDS.values())
LJ = _CARDS["LJ"]
BJ = _CARDS["BJ"]


def card(text: str) -> Card:
    """The card with this canonical text (fast path: no aliases)."""
    try:
        return _CARDS[text]
    except KeyError:
        return parse_card(text)


def _normal_rank(text: str) -> str | None:
    rank = _RANK_ALIASES.get(text, text)
    return rank if rank in NATURAL_RANKS else None


def parse_card(token: str) -> Card:
    """Read one card in any accepted spelling; an unknown token raises `RecordError`."""
    text = token.strip().replace(_VARIATION_SELECTOR, "")
    found = _CARDS.get(text)
    if found is not None:
        return found
    upper = text.upper()
    if upper in _JOKER_ALIASES or text in _JOKER_ALIASES:
        return _CARDS[_JOKER_ALIASES.get(upper, _JOKER_ALIASES.get(text, ""))]
    if len(text) >= 2:
        suit = _SYMBOL_TO_SUIT.get(text[0], text[0].upper())
        rank = _normal_rank(text[1:].upper())
        if suit in SUITS and rank is not None:
            return _CARDS[suit + rank]
    raise RecordError("unknown_card", f"unknown card {token!r}", token=token)


def split_tokens(text: str | Iterable[str]) -> list[str]:
    """The tokens of a card text: cut at spaces and commas (``"S10 H10"``, ``"S10,H10"``); a
    list's strings are cut the same way (``["S10 H10"]``). Runs written together stay one
    token (``"S10H10"``), for `parse_card_run`."""
    if isinstance(text, str):
        return text.translate(_SEPARATORS).split()
    return [token for part in text for token in part.translate(_SEPARATORS).split()]


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read cards written apart or together, in any accepted spelling: ``"S10 H10"``,
    ``["S10", "H10"]``, ``["♥10♠10"]``, ``"dqdq"``, ``"小王大王"``. An unknown token raises
    `RecordError` naming it."""
    cards: list[Card] = []
    for token in split_tokens(text):
        found = _CARDS.get(token)
        if found is not None:
            cards.append(found)
        else:
            cards.extend(parse_card_run(token))
    return cards


def parse_card_run(token: str) -> list[Card]:
    """One token of cards written together (``♥10♠10``, ``S10H10``, ``BJLJ``)."""
    return [c for c in parse_run(token, ranks_allowed=False) if isinstance(c, Card)]


def parse_cards_or_ranks(text: str | Iterable[str]) -> list[Card | str]:
    """Like `parse_cards`, where a rank alone is allowed too (四团, where suits never matter):
    ``"7777"``, ``"10 10"``, ``"S7 7"``, ``"LJLJ BJ"``. A card is a `Card`, a bare rank its
    rank text (``"7"``, ``"LJ"`` — a joker written alone is its own rank)."""
    parsed: list[Card | str] = []
    for token in split_tokens(text):
        found = _CARDS.get(token)
        if found is not None:
            parsed.append(found)
        else:
            parsed.extend(parse_run(token, ranks_allowed=True))
    return parsed


def parse_run(token: str, ranks_allowed: bool) -> list[Card | str]:
    """Split a token of cards (and, where ``ranks_allowed``, bare ranks) written together.

    Jokers are always cards (``LJ``, ``小王``); a suited card is a `Card`; a bare rank is its
    text. Raises `RecordError` naming the token when any part of it is not a card (or rank).
    """
    text = token.replace(_VARIATION_SELECTOR, "")
    upper = text.upper()
    parsed: list[Card | str] = []
    i, n = 0, len(text)
    while i < n:
        two = upper[i : i + 2]
        if two in ("LJ", "BJ") or text[i : i + 2] in ("小王", "大王"):
            joker = _CARDS[_JOKER_ALIASES.get(two) or _JOKER_ALIASES[text[i : i + 2]]]
            parsed.append(joker)
            i += 2
            continue
        suit = _SUIT_OF_LETTER.get(upper[i])
        start = i + 1 if suit is not None else i
        if suit is None and not ranks_allowed:
            raise _unknown(token)
        rank_text = "10" if upper[start : start + 2] == "10" else upper[start : start + 1]
        rank = _normal_rank(rank_text)
        if rank is None:
            raise _unknown(token)
        parsed.append(_CARDS[suit + rank] if suit is not None else rank)
        i = start + len(rank_text)
    if not parsed:
        raise _unknown(token)
    return parsed


def _unknown(token: str) -> RecordError:
    return RecordError("unknown_card", f"unknown card {token!r}", token=token)


def parse_suit(text: str) -> str | None:
    """A trump choice in any accepted spelling: ``S H C D`` (any case), the symbols, the
    Chinese names (黑桃 ♠, 红桃/紅桃 ♥, 梅花 ♣, 方块/方塊 ♦) and ``none`` / 无主 / 無主 for
    no trump suit. Returns ``"S"``…``"D"``, ``"none"``, or None when it is no suit."""
    word = text.strip().replace(_VARIATION_SELECTOR, "")
    return _SUIT_WORDS.get(word) or _SUIT_WORDS.get(word.lower())


def format_cards(cards: Iterable[Card]) -> str:
    """Canonical text, cards separated by single spaces."""
    return " ".join(c.text for c in cards)


def card_texts(cards: Iterable[Card]) -> list[str]:
    return [c.text for c in cards]


def parse_rank_run(token: str) -> list[str]:
    """Split a run of ranks written without suits: ``7777`` → 7 7 7 7, ``LJLJBJ``, ``1010``
    (a suited card in the run counts as its rank: ``S7H7`` → 7 7).

    Raises `RecordError` naming the token when any part of it is not a rank.
    """
    return [p if isinstance(p, str) else p.rank for p in parse_run(token, ranks_allowed=True)]
