"""Cards and their one canonical text form (hand-record.md).

A card is a suit and a rank: ``S10``, ``HA``, ``SJ`` (the spade jack). The jokers have no suit:
``LJ`` (小王, little) and ``BJ`` (大王, big). Every distinct card is one shared immutable object,
so cards compare and hash by identity and a deck of several packs is just repeated references.

>>> parse_card("♠10")
Card('S10')
>>> format_cards(parse_cards("s10 小王 大王"))
'S10 LJ BJ'
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
    text = token.strip()
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


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read cards separated by spaces or commas (or a list of tokens)."""
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(token) for token in tokens]


def format_cards(cards: Iterable[Card]) -> str:
    """Canonical text, cards separated by single spaces."""
    return " ".join(c.text for c in cards)


def card_texts(cards: Iterable[Card]) -> list[str]:
    return [c.text for c in cards]


def parse_rank_run(token: str) -> list[str]:
    """Split a run of ranks written without suits: ``7777`` → 7 7 7 7, ``LJLJBJ``, ``1010``.

    Raises `RecordError` naming the token when any part of it is not a rank.
    """
    ranks: list[str] = []
    i = 0
    upper = token.upper()
    while i < len(upper):
        two = upper[i : i + 2]
        if two in ("10", "LJ", "BJ"):
            ranks.append(two)
            i += 2
        elif token[i : i + 2] in ("小王", "大王"):
            ranks.append(_JOKER_ALIASES[token[i : i + 2]])
            i += 2
        else:
            rank = _normal_rank(upper[i])
            if rank is None:
                raise RecordError("unknown_card", f"unknown card {token!r}", token=token)
            ranks.append(rank)
            i += 1
    return ranks
