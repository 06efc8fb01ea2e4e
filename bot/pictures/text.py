"""Measuring and drawing one line of text in mixed fonts, with red suit symbols.

Lines are placed by their top edge; each run is drawn on a common baseline (anchor "ls") so
that a name mixing Chinese, Latin and a fallback font sits on one line.
"""

from __future__ import annotations

from PIL import ImageDraw

from bot.pictures.fonts import Style, clusters, pillow_font, runs
from bot.pictures.theme import RGB, SUIT_RED

ELLIPSIS = "…"
RED_SYMBOLS = frozenset("♥♦")

# Noto Sans CJK's em box spans about 0.88 above the baseline and 0.12 below; a line box of
# LINE_HEIGHT em with the baseline at BASELINE em centres hanzi and digits alike.
LINE_HEIGHT = 1.3
BASELINE = 1.02
CENTRE_TO_BASELINE = 0.37


def line_height(size: int) -> int:
    return round(size * LINE_HEIGHT)


def width(text: str, size: int, style: Style = "regular") -> int:
    total = 0.0
    for face, piece in runs(text, style):
        total += pillow_font(face, size).getlength(piece)
    return round(total)


def fit(text: str, size: int, max_width: int, style: Style = "regular") -> str:
    """``text``, cut with an ellipsis if it is wider than ``max_width`` (long player names)."""
    if width(text, size, style) <= max_width:
        return text
    # Cut between signs, never inside one: half an emoji ZWJ sequence is another emoji.
    signs = clusters(text)
    low, high = 0, len(signs)
    while low < high:
        middle = (low + high + 1) // 2
        if width("".join(signs[:middle]) + ELLIPSIS, size, style) <= max_width:
            low = middle
        else:
            high = middle - 1
    return "".join(signs[:low]).rstrip() + ELLIPSIS


def draw_on_baseline(
    draw: ImageDraw.ImageDraw,
    x: float,
    baseline: float,
    text: str,
    size: int,
    fill: RGB,
    style: Style = "regular",
    red_suits: bool = False,
) -> float:
    """Draw ``text`` starting at ``x``; return the x where it ends."""
    for face, piece in runs(text, style):
        font = pillow_font(face, size)
        for chunk, colour in _coloured(piece, fill, red_suits):
            draw.text((x, baseline), chunk, font=font, fill=colour, anchor="ls")
            x += font.getlength(chunk)
    return x


def draw_line(
    draw: ImageDraw.ImageDraw,
    x: float,
    top: float,
    text: str,
    size: int,
    fill: RGB,
    style: Style = "regular",
    red_suits: bool = False,
) -> float:
    """Draw ``text`` in a line box whose top-left corner is (x, top); return its end x."""
    return draw_on_baseline(draw, x, top + size * BASELINE, text, size, fill, style, red_suits)


def draw_centred(
    draw: ImageDraw.ImageDraw,
    centre_x: float,
    centre_y: float,
    text: str,
    size: int,
    fill: RGB,
    style: Style = "regular",
    red_suits: bool = False,
) -> None:
    left = centre_x - width(text, size, style) / 2
    baseline = centre_y + size * CENTRE_TO_BASELINE
    draw_on_baseline(draw, left, baseline, text, size, fill, style, red_suits)


def draw_right(
    draw: ImageDraw.ImageDraw,
    right: float,
    top: float,
    text: str,
    size: int,
    fill: RGB,
    style: Style = "regular",
) -> None:
    draw_line(draw, right - width(text, size, style), top, text, size, fill, style)


def _coloured(piece: str, fill: RGB, red_suits: bool) -> list[tuple[str, RGB]]:
    # On light backgrounds ♥♦ in a header ("主 ♥") read as the suit they name only in red.
    if not red_suits or not RED_SYMBOLS.intersection(piece):
        return [(piece, fill)]
    chunks: list[tuple[str, RGB]] = []
    for character in piece:
        colour = SUIT_RED if character in RED_SYMBOLS else fill
        if chunks and chunks[-1][1] == colour:
            chunks[-1] = (chunks[-1][0] + character, colour)
        else:
            chunks.append((character, colour))
    return chunks
