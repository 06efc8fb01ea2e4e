from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from PIL import Image

from bot.pictures import clear_caches


@pytest.fixture(autouse=True)
def fresh_caches() -> Iterator[None]:
    # Each test sees its own draws: a picture cached by an earlier test would hide them.
    clear_caches()
    yield
    clear_caches()


def open_png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    image.load()
    return image
