"""Layout fixtures: pictures of both games for the renderer's own tests, without the engine.

The hands are shuffled from a seed, not dealt by the rules; the tables and settlements are
written by hand, kept consistent (a round's points are its cards' points, a settlement's
amounts add up to nothing, a 四团 win has its 200 points) but not played. Real pictures, from
hands the engine deals and the AI plays out, are what ``bench/pictures.py`` draws.

The 二七王 hand is sorted the way the host passes it (trumps first in trump order, then each
side suit high to low); this module knows just enough of the trump order to do that.
"""

from __future__ import annotations

import random

from bot.pictures.faces import (
    NATURAL_RANKS,
    SUITS,
    CardFace,
    HandPicture,
    Play,
    SettlementPicture,
    SettlementRow,
    TablePicture,
    faces,
)

SITUAN_DECK = tuple(CardFace(rank) for rank in NATURAL_RANKS for _ in range(12)) + tuple(
    CardFace(rank) for rank in ("LJ", "LJ", "LJ", "BJ")
)
ERQIWANG_DECK = tuple(
    CardFace(rank, suit) for _ in range(2) for suit in SUITS for rank in NATURAL_RANKS
) + tuple(CardFace(rank) for rank in ("LJ", "LJ", "BJ", "BJ"))
_SIDE_ORDER = ("A", "K", "Q", "J", "10", "9", "8", "6", "5", "4", "3")


def situan_hand(seed: int, player: str = "张三", cards: int = 39) -> HandPicture:
    dealt = tuple(random.Random(seed).sample(SITUAN_DECK, cards))
    return HandPicture("by_rank", player, dealt, ("四团 · 第 3 局", "座位 1", f"{cards}张"))


def erqiwang_sorted(
    cards: tuple[CardFace, ...], trump: str
) -> tuple[tuple[CardFace, ...], tuple[int, ...]]:
    """``cards`` in holding order for trump suit ``trump``, and where each suit group starts."""

    def trump_key(card: CardFace) -> int:
        if card.rank == "BJ":
            return 0
        if card.rank == "LJ":
            return 1
        if card.rank == "7":
            return 2 if card.suit == trump else 3 + SUITS.index(card.suit)
        if card.rank == "2":
            return 10 if card.suit == trump else 11 + SUITS.index(card.suit)
        return 20 + _SIDE_ORDER.index(card.rank)

    def is_trump(card: CardFace) -> bool:
        return card.is_joker or card.rank in ("7", "2") or card.suit == trump

    groups = [sorted((card for card in cards if is_trump(card)), key=trump_key)]
    for suit in SUITS:
        if suit != trump:
            side = [card for card in cards if card.suit == suit and not is_trump(card)]
            groups.append(sorted(side, key=lambda card: _SIDE_ORDER.index(card.rank)))
    ordered: list[CardFace] = []
    breaks: list[int] = []
    for group in groups:
        if group:
            breaks.append(len(ordered))
            ordered.extend(group)
    return tuple(ordered), tuple(breaks[1:])


def erqiwang_hand(seed: int, player: str = "李四", cards: int = 33) -> HandPicture:
    dealt = tuple(random.Random(seed).sample(ERQIWANG_DECK, cards))
    ordered, breaks = erqiwang_sorted(dealt, trump="H")
    details = ("二七王 · 第 2 局", "庄家", "主牌 ♥", f"{cards}张")
    return HandPicture("as_held", player, ordered, details, breaks)


def situan_table() -> TablePicture:
    return TablePicture(
        "by_rank",
        "四团 · 第 3 局 · 第 12 轮",
        (
            Play("张三", faces("9 9 9")),
            Play("Алексей", faces("K K K")),
            Play("王小明", ()),
            Play("Sam 🐉", faces("7 7 7 7 7 7 7"), won=True, note="墩"),
            Play("张三", ()),
            Play("Алексей", ()),
            Play("王小明", (), note="托管"),
        ),
        headers=("本轮分数 30", "A 队 120 · B 队 85", "报牌: 王小明 9张"),
        result="Sam 🐉 赢得本轮, 得 30 分",  # K K K: 3 × 10
        points=30,
    )


def erqiwang_table() -> TablePicture:
    return TablePicture(
        "as_held",
        "二七王 · 第 2 局 · 第 7 墩",
        (
            Play("李四 (庄)", faces("SA SA SK SK")),
            Play("Emma", faces("S5 S10 S3 S4")),
            Play("陈大文", faces("HA HA HK HK"), won=True, note="毙"),  # a trump tractor
            Play("Иван", faces("SQ SQ SJ SJ")),
        ),
        headers=("主牌 ♥", "叫分 75", "闲家得分 60"),
        result="陈大文 毙牌赢得本墩, 闲家得 55 分",  # SK SK S5 S10 HK HK
        points=55,
    )


def situan_settlement() -> SettlementPicture:
    return SettlementPicture(
        "四团 · 第 3 局 结算",
        (
            SettlementRow("张三", "上游 · A 队胜", 2, 5, "墩 ×1 +1.5", winner=True),
            SettlementRow("王小明", "3游 · A 队胜", 2, 3, winner=True),
            SettlementRow("Алексей", "2游 · B 队负", -2, -4, "墩 ×2 +3"),
            SettlementRow("Sam 🐉", "4游 · B 队负", -2, -4),
        ),
        footer="A 队 205 分 · B 队 95 分",  # 300 in all; 200 wins
    )


def erqiwang_settlement() -> SettlementPicture:
    return SettlementPicture(
        "二七王 · 第 2 局 结算",
        (
            SettlementRow("李四", "庄家 · 下庄 (闲家 95 / 75)", -6, -4, "主7冲关 ×2"),
            SettlementRow("Emma", "闲家", 2, 1, winner=True),
            SettlementRow("陈大文", "闲家", 2, 3, "冲关 ×1", winner=True),
            SettlementRow("Иван", "闲家", 2, 0, winner=True),
        ),
        footer="主牌 ♥ · 叫分 75 · 底牌 15 分",
    )
