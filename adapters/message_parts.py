"""Pieces of an outgoing message as a platform takes them: its picture drawn off the event
loop, a long text cut to the platform's size limit (at line ends where it can), and a picture's
digest, by which an unchanged picture is not uploaded again."""

from __future__ import annotations

import hashlib
import logging

from bot.pictures import render_async
from bot.views.outgoing import Outgoing

log = logging.getLogger("adapters.delivery")


def digest(png: bytes) -> str:
    return hashlib.blake2b(png, digest_size=16).hexdigest()


def split_text(text: str, limit: int) -> list[str]:
    """Platforms cap a message's length: long texts go in pieces, split at lines."""
    chunks: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            chunks.append(line[:limit])
            line = line[limit:]
        if len(current) + len(line) + 1 > limit:
            chunks.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    return [*chunks, current] if current or not chunks else chunks


async def draw(key: str, message: Outgoing) -> bytes | None:
    """The message's picture as PNG, drawn off the event loop; None: text only (no picture,
    or drawing failed — logged, never raised)."""
    if message.picture is None:
        return None
    try:
        return await render_async(message.picture)
    except Exception as error:  # PictureError, or anything else: the text still goes
        log.warning("no picture for a message to %s (%s): sending text only", key, error)
        return None
