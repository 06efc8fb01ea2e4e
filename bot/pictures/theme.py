"""Colours and sizes shared by every picture.

Sizes are in pixels of a picture at most 1080 px wide, which a phone shows about a third as
large: text under ~28 px becomes hard to read there, so nothing a player needs is smaller.
"""

from __future__ import annotations

from typing import Final

RGB = tuple[int, int, int]

MAX_WIDTH: Final = 1080
MAX_HEIGHT: Final = 6000
MARGIN: Final = 36

FELT: Final[RGB] = (24, 92, 62)
FELT_DARK: Final[RGB] = (17, 70, 47)
ON_FELT: Final[RGB] = (246, 244, 236)
ON_FELT_MUTED: Final[RGB] = (178, 209, 190)

PAPER: Final[RGB] = (250, 247, 240)
INK: Final[RGB] = (33, 33, 33)
INK_MUTED: Final[RGB] = (110, 110, 110)
RULE_LINE: Final[RGB] = (222, 216, 202)

CARD_WHITE: Final[RGB] = (255, 255, 255)
CARD_EDGE: Final[RGB] = (190, 190, 190)
SUIT_BLACK: Final[RGB] = (28, 28, 28)
SUIT_RED: Final[RGB] = (206, 17, 38)

WINNER_GOLD: Final[RGB] = (255, 202, 40)
WINNER_TINT: Final[RGB] = (255, 243, 196)
GAIN: Final[RGB] = (198, 40, 40)
LOSS: Final[RGB] = (69, 90, 100)

BADGE_PLAIN: Final[RGB] = (38, 50, 56)
BADGE_BOMB: Final[RGB] = (230, 120, 0)
BADGE_DUN: Final[RGB] = (198, 40, 40)

TITLE_SIZE: Final = 40
TEXT_SIZE: Final = 32
SMALL_SIZE: Final = 28
