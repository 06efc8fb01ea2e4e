"""Pills: small rounded labels such as a 四团 count (×5), a winner's points (+25), a pass."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from bot.pictures import text
from bot.pictures.fonts import Style
from bot.pictures.sprites import SCALE, finish, new_layer
from bot.pictures.theme import RGB


@lru_cache(maxsize=256)
def pill(
    label: str,
    size: int,
    fill: RGB,
    ink: RGB,
    style: Style = "bold",
    outline: RGB | None = None,
    red_suits: bool = False,
) -> Image.Image:
    """A pill fitted to ``label`` in a ``size`` px font, as an RGBA sprite."""
    height = round(size * 1.45)
    pad = round(size * 0.5)
    width = max(height, text.width(label, size, style) + 2 * pad)
    layer, draw = new_layer(width, height)
    draw.rounded_rectangle(
        (0, 0, width * SCALE - 1, height * SCALE - 1),
        radius=height * SCALE // 2,
        fill=fill,
        outline=outline,
        width=SCALE * 2 if outline else 0,
    )
    text.draw_centred(
        draw, width * SCALE / 2, height * SCALE / 2, label, size * SCALE, ink, style, red_suits
    )
    return finish(layer)
