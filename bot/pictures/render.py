"""The public render functions: a picture value in, PNG bytes out, cached by value.

An unchanged hand (the same `HandPicture`, compared by value) is not drawn again: the bytes
come from a small LRU cache. Drawing holds one lock, since FreeType faces are shared and are
not safe to use from two threads at once; `render_async` runs a render in a worker thread so
the chat host's event loop never waits on Pillow. Every failure comes out as `PictureError`.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from functools import _CacheInfo, lru_cache
from typing import ParamSpec, TypeVar

from PIL import Image

from bot.pictures import canvas, hand, settlement, table
from bot.pictures.errors import PictureError
from bot.pictures.faces import HandPicture, SettlementPicture, TablePicture

CACHE_SIZE = 256
"""Pictures kept per kind: a hand picture is ~60-120 kB, so the caches stay under ~80 MB."""

_drawing = threading.Lock()

P = ParamSpec("P")
Picture = TypeVar("Picture", HandPicture, TablePicture, SettlementPicture)


def _render(draw: Callable[[Picture], Image.Image], picture: Picture, kind: str) -> bytes:
    try:
        with _drawing:
            return canvas.to_png(draw(picture))
    except PictureError:
        raise
    except Exception as error:  # Pillow and FreeType raise OSError, ValueError, MemoryError...
        raise PictureError(f"could not draw the {kind} picture: {error!r}") from error


@lru_cache(maxsize=CACHE_SIZE)
def _cached_hand(picture: HandPicture) -> bytes:
    # Looked up on the module at call time, so that tests can count the draws.
    return _render(hand.draw_hand, picture, "hand")


@lru_cache(maxsize=CACHE_SIZE)
def _cached_table(picture: TablePicture) -> bytes:
    return _render(table.draw_table, picture, "table")


@lru_cache(maxsize=CACHE_SIZE)
def _cached_settlement(picture: SettlementPicture) -> bytes:
    return _render(settlement.draw_settlement, picture, "settlement")


def render_hand(picture: HandPicture) -> bytes:
    """A player's private hand as PNG: 四团 by rank with counts, 二七王 in the order given."""
    return _cached_hand(_checked(picture, HandPicture))


def render_table(picture: TablePicture) -> bytes:
    """The table after a trick or round as PNG: each play by seat, the winner and points."""
    return _cached_table(_checked(picture, TablePicture))


def render_settlement(picture: SettlementPicture) -> bytes:
    """A hand's settlement as PNG: one row per player, winners highlighted."""
    return _cached_settlement(_checked(picture, SettlementPicture))


async def render_async(render: Callable[P, bytes], *args: P.args, **kwargs: P.kwargs) -> bytes:
    """Run ``render(*args)`` in a worker thread: ``await render_async(render_hand, picture)``."""
    return await asyncio.to_thread(render, *args, **kwargs)


def cache_info() -> dict[str, _CacheInfo]:
    """Hits and misses of each cache, for logs and the benchmark."""
    return {
        "hand": _cached_hand.cache_info(),
        "table": _cached_table.cache_info(),
        "settlement": _cached_settlement.cache_info(),
    }


def clear_caches() -> None:
    _cached_hand.cache_clear()
    _cached_table.cache_clear()
    _cached_settlement.cache_clear()


def _checked(picture: Picture, expected: type[Picture]) -> Picture:
    if not isinstance(picture, expected):
        raise PictureError(f"expected a {expected.__name__}, got {type(picture).__name__}")
    try:
        hash(picture)
    except TypeError as error:
        # A list where a tuple belongs: the cache needs hashable values, and says so clearly.
        raise PictureError(f"picture values must be tuples, not lists: {error}") from error
    return picture
