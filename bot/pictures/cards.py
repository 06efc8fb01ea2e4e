"""One card, drawn: a rounded white card with its index in the corners and a centre mark.

二七王 cards show rank and suit (♠♣ black, ♥♦ red). 四团 cards show the rank only, since
suits never matter there. Jokers print their label (小王/大王) down the corner and a star, the
big joker in red. In a fan only the left strip of a card shows, so the top-left index is
what identifies it: it is large and bold, and the only one (a second, turned index would
collide with the centre mark at these sizes).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.pictures import text
from bot.pictures.faces import SUIT_SYMBOLS, CardFace
from bot.pictures.sprites import SCALE, finish, new_layer, paste, soft_shadow
from bot.pictures.theme import CARD_EDGE, CARD_WHITE, RGB, SUIT_BLACK, SUIT_RED

SHADOW = 6
"""Transparent margin around each card sprite, where its shadow falls."""

JOKER_STAR = "★"


@dataclass(frozen=True, slots=True)
class CardSize:
    width: int
    height: int

    @property
    def radius(self) -> int:
        return round(self.width * 0.1)

    @property
    def index_size(self) -> int:
        return round(self.width * 0.34)

    @property
    def index_suit_size(self) -> int:
        return round(self.width * 0.26)

    @property
    def centre_size(self) -> int:
        return round(self.width * 0.48)

    @property
    def inset(self) -> int:
        return round(self.width * 0.07)

    @property
    def visible_strip(self) -> int:
        """How much of a card must show in a fan for its index to be read ("10" is widest)."""
        return round(self.width * 0.5)


HAND_CARD = CardSize(120, 168)
RANK_HAND_CARD = CardSize(114, 160)
TABLE_CARD = CardSize(96, 134)


def colour_of(face: CardFace) -> RGB:
    return SUIT_RED if face.is_red else SUIT_BLACK


def paste_card(
    canvas: Image.Image, face: CardFace, size: CardSize, x: int, y: int, rank_only: bool
) -> None:
    """Put the card with its top-left corner at (x, y)."""
    paste(canvas, card_sprite(face, size, rank_only), x - SHADOW, y - SHADOW)


@lru_cache(maxsize=512)
def card_sprite(face: CardFace, size: CardSize, rank_only: bool) -> Image.Image:
    outer = (size.width + 2 * SHADOW, size.height + 2 * SHADOW)
    layer, draw = new_layer(*outer)
    left, top = SHADOW * SCALE, SHADOW * SCALE
    right, bottom = left + size.width * SCALE - 1, top + size.height * SCALE - 1
    draw.rounded_rectangle(
        (left, top, right, bottom),
        radius=size.radius * SCALE,
        fill=CARD_WHITE,
        outline=CARD_EDGE,
        width=SCALE,
    )
    _draw_face(draw, face, size, rank_only)
    shadow = soft_shadow(
        layer.size,
        (left, top + 3 * SCALE, right, bottom + 3 * SCALE),
        size.radius * SCALE,
        opacity=90,
        blur=3 * SCALE,
    )
    shadow.alpha_composite(layer)
    return finish(shadow)


def _draw_face(draw: ImageDraw.ImageDraw, face: CardFace, size: CardSize, rank_only: bool) -> None:
    colour = colour_of(face)
    origin = SHADOW * SCALE
    inset = size.inset * SCALE
    card_w, card_h = size.width * SCALE, size.height * SCALE
    _draw_index(draw, face, size, origin + inset, origin + inset // 2, rank_only)
    # The centre mark sits low and right of the middle, clear of the corner index; a fan
    # hides it on all but the last card, where it makes the suit recognisable at a glance.
    centre_x, centre_y = origin + card_w * 0.58, origin + card_h * 0.6
    centre_size = size.centre_size * SCALE
    if face.is_joker:
        mark = JOKER_STAR
    elif rank_only:
        mark = face.rank
    else:
        mark = SUIT_SYMBOLS.get(face.suit, face.rank)
    text.draw_centred(draw, centre_x, centre_y, mark, centre_size, colour, "bold")


def _draw_index(
    draw: ImageDraw.ImageDraw, face: CardFace, size: CardSize, x: int, top: int, rank_only: bool
) -> None:
    """Draw the corner index at drawing scale."""
    colour = colour_of(face)
    if face.is_joker:
        # Joker labels run down the corner, one character a line, like the print on real jokers.
        label = face.joker_label[:5]
        fits = round(size.height * 0.5 / max(len(label), 2))
        letter_size = min(round(size.index_suit_size * 1.05), fits) * SCALE
        y = top + SCALE * 2
        for character in label:
            text.draw_centred(
                draw,
                x + letter_size * 0.55,
                y + letter_size * 0.5,
                character,
                letter_size,
                colour,
                "bold",
            )
            y += round(letter_size * 1.02)
        return
    rank_size = size.index_size * SCALE
    rank_centre_x = x + rank_size * 0.42
    # "10" is drawn a little smaller so that it fits the same strip as one-character ranks.
    rank_text_size = round(rank_size * 0.86) if face.rank == "10" else rank_size
    text.draw_centred(
        draw, rank_centre_x, top + rank_size * 0.55, face.rank, rank_text_size, colour, "bold"
    )
    y = top + round(rank_size * 1.08)
    if face.suit and not rank_only:
        suit_size = size.index_suit_size * SCALE
        text.draw_centred(
            draw,
            rank_centre_x,
            y + suit_size * 0.5,
            SUIT_SYMBOLS[face.suit],
            suit_size,
            colour,
            "regular",
        )
