"""The picture's ground and its title line, and turning the finished picture into PNG bytes."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from bot.pictures import text
from bot.pictures.errors import PictureError
from bot.pictures.theme import (
    MARGIN,
    MAX_HEIGHT,
    MAX_WIDTH,
    ON_FELT,
    ON_FELT_MUTED,
    RGB,
    TEXT_SIZE,
    TITLE_SIZE,
)

TITLE_SEPARATOR = " · "


def ground(width: int, height: int, colour: RGB) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    if width > MAX_WIDTH or height > MAX_HEIGHT:
        # Chat apps shrink or refuse taller pictures; the caller sends text instead.
        raise PictureError(f"picture would be {width}x{height} px, over {MAX_WIDTH}x{MAX_HEIGHT}")
    image = Image.new("RGB", (width, height), colour)
    return image, ImageDraw.Draw(image)


def title_height() -> int:
    return text.line_height(TITLE_SIZE)


def draw_title(
    draw: ImageDraw.ImageDraw, top: int, name: str, details: tuple[str, ...], width: int
) -> None:
    """``name`` in bold, then the details in a quieter colour, cut to fit the width."""
    room = width - 2 * MARGIN
    rest = TITLE_SEPARATOR + TITLE_SEPARATOR.join(details) if details else ""
    # The name gets what the details leave, but never less than half the line.
    name_room = max(room - text.width(rest, TEXT_SIZE), room // 2)
    name = text.fit(name, TITLE_SIZE, name_room, "bold")
    end = text.draw_line(draw, MARGIN, top, name, TITLE_SIZE, ON_FELT, "bold")
    if not rest:
        return
    rest = text.fit(rest, TEXT_SIZE, round(MARGIN + room - end))
    # The smaller details share the name's baseline, so the line reads as one.
    baseline = top + TITLE_SIZE * text.BASELINE
    text.draw_on_baseline(draw, end, baseline, rest, TEXT_SIZE, ON_FELT_MUTED)


def to_png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    # Level 3 is about as small as 6 for these flat pictures, and quicker to write.
    image.save(buffer, format="PNG", compress_level=3)
    return buffer.getvalue()
