"""Drawing small things smooth: at twice the size, then scaled down.

Pillow draws shapes without anti-aliasing; a card corner or a badge drawn at 2x and reduced
with a Lanczos filter looks as smooth as text. The results are cached, so each card face or
badge is drawn once per size and then only pasted.
"""

from __future__ import annotations

from PIL import Image, ImageDraw, ImageFilter

SCALE = 2


def new_layer(width: int, height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A transparent RGBA layer at drawing scale for a ``width`` x ``height`` sprite."""
    layer = Image.new("RGBA", (width * SCALE, height * SCALE), (0, 0, 0, 0))
    return layer, ImageDraw.Draw(layer)


def finish(layer: Image.Image) -> Image.Image:
    return layer.resize((layer.width // SCALE, layer.height // SCALE), Image.Resampling.LANCZOS)


def soft_shadow(
    size: tuple[int, int], box: tuple[int, int, int, int], radius: int, opacity: int, blur: int
) -> Image.Image:
    """A blurred dark rounded rectangle at drawing scale (coordinates already scaled)."""
    mask = Image.new("L", size, 0)
    ImageDraw.Draw(mask).rounded_rectangle(box, radius=radius, fill=opacity)
    mask = mask.filter(ImageFilter.GaussianBlur(blur))
    shadow = Image.new("RGBA", size, (0, 0, 0, 0))
    shadow.putalpha(mask)
    return shadow


def paste(canvas: Image.Image, sprite: Image.Image, x: int, y: int) -> None:
    canvas.paste(sprite, (x, y), sprite)
