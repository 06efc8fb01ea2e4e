"""The one exception a caller catches to fall back to text."""

from __future__ import annotations


class PictureError(Exception):
    """A picture could not be drawn (bad input, missing font, Pillow failure).

    The chat host catches this and sends the same content as text instead: a picture is a
    nicety, never the only way a player learns their hand.
    """
