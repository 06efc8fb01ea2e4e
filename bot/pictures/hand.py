"""The private hand picture: a player's cards as they hold them.

四团: one card per rank present, low to high, each with a count badge (×5), since suits never
matter and 39 cards shrink to at most 15 ranks. 二七王: every card in the order given
(trumps first, then each side suit), in overlapping rows, with a gap between suit groups.
"""

from __future__ import annotations

from collections import Counter

from PIL import Image

from bot.pictures import canvas
from bot.pictures.badges import pill
from bot.pictures.cards import HAND_CARD, RANK_HAND_CARD, paste_card
from bot.pictures.faces import RANK_ORDER, CardFace, HandPicture
from bot.pictures.fan import fan_offsets, split_rows
from bot.pictures.sprites import paste
from bot.pictures.theme import (
    BADGE_BOMB,
    BADGE_DUN,
    BADGE_PLAIN,
    FELT,
    MARGIN,
    MAX_WIDTH,
    ON_FELT,
    RGB,
)

RANKS_PER_ROW = 8
CARDS_PER_ROW = 13
ROW_GAP = 22
COUNT_SIZE = 30
BOMB_COUNT = 4
"""四团: four or more of a rank make a bomb (炸); seven or more a 墩. Their badges stand out."""
DUN_COUNT = 7


def draw_hand(picture: HandPicture) -> Image.Image:
    if picture.layout == "by_rank":
        return _draw_by_rank(picture)
    return _draw_as_held(picture)


def rank_groups(cards: tuple[CardFace, ...]) -> list[tuple[CardFace, int]]:
    """Each rank present with its count, low to high; suits are dropped."""
    counts = Counter(card.rank for card in cards)
    labels = {card.rank: card.label for card in cards if card.label}
    return [
        (CardFace(rank, label=labels.get(rank, "")), counts[rank])
        for rank in RANK_ORDER
        if counts[rank]
    ]


def _count_colour(count: int) -> RGB:
    if count >= DUN_COUNT:
        return BADGE_DUN
    if count >= BOMB_COUNT:
        return BADGE_BOMB
    return BADGE_PLAIN


def _draw_by_rank(picture: HandPicture) -> Image.Image:
    size = RANK_HAND_CARD
    groups = rank_groups(picture.cards)
    rows = split_rows(len(groups), RANKS_PER_ROW)
    badge_overhang = round(COUNT_SIZE * 1.45) // 2
    row_height = size.height + badge_overhang + ROW_GAP
    cards_top = MARGIN + canvas.title_height() + ROW_GAP
    height = cards_top + len(rows) * row_height + MARGIN - ROW_GAP
    image, draw = canvas.ground(MAX_WIDTH, height, FELT)
    canvas.draw_title(draw, MARGIN, picture.player, picture.details, MAX_WIDTH)
    available = MAX_WIDTH - 2 * MARGIN
    for row_number, row in enumerate(rows):
        offsets = fan_offsets(len(row), size, available)
        left = MARGIN + (available - (offsets[-1] + size.width)) // 2
        top = cards_top + row_number * row_height
        for offset, index in zip(offsets, row, strict=True):
            face, count = groups[index]
            x = left + offset
            paste_card(image, face, size, x, top, rank_only=True)
            badge = pill(f"×{count}", COUNT_SIZE, _count_colour(count), ON_FELT)
            paste(
                image,
                badge,
                x + (size.width - badge.width) // 2,
                top + size.height - badge.height // 2,
            )
    return image


def _draw_as_held(picture: HandPicture) -> Image.Image:
    size = HAND_CARD
    rows = split_rows(len(picture.cards), CARDS_PER_ROW)
    row_height = size.height + ROW_GAP
    cards_top = MARGIN + canvas.title_height() + ROW_GAP
    height = cards_top + len(rows) * row_height + MARGIN - ROW_GAP
    image, draw = canvas.ground(MAX_WIDTH, height, FELT)
    canvas.draw_title(draw, MARGIN, picture.player, picture.details, MAX_WIDTH)
    available = MAX_WIDTH - 2 * MARGIN
    breaks = frozenset(picture.breaks)
    for row_number, row in enumerate(rows):
        row_breaks = frozenset(index - row.start for index in breaks if index in row)
        offsets = fan_offsets(len(row), size, available, row_breaks)
        top = cards_top + row_number * row_height
        for offset, index in zip(offsets, row, strict=True):
            paste_card(image, picture.cards[index], size, MARGIN + offset, top, rank_only=False)
    return image
