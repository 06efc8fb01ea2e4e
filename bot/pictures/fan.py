"""Where the cards of a row go: side by side when there is room, overlapped when not."""

from __future__ import annotations

from bot.pictures.cards import CardSize

GROUP_GAP = 18
"""Extra space where a new suit group starts (二七王: after the trumps, between side suits)."""

SPACING = 10
"""Space between cards that are not overlapped."""


def fan_offsets(
    count: int, size: CardSize, available: int, breaks: frozenset[int] = frozenset()
) -> list[int]:
    """The x offset of each of ``count`` cards within ``available`` px.

    ``breaks`` are the indexes (within this row) where a group starts; index 0 never gets a gap.
    """
    if count == 0:
        return []
    gaps = sum(1 for index in breaks if 0 < index < count)
    if count == 1:
        return [0]
    room = available - size.width - gaps * GROUP_GAP
    step = min(size.width + SPACING, room / (count - 1))
    offsets: list[int] = []
    x = 0.0
    for index in range(count):
        if index in breaks and index > 0:
            x += GROUP_GAP
        offsets.append(round(x))
        x += step
    return offsets


def fan_width(offsets: list[int], size: CardSize) -> int:
    return offsets[-1] + size.width if offsets else 0


def split_rows(count: int, most_per_row: int) -> list[range]:
    """``count`` card indexes in as few rows as allowed, the rows as even as possible."""
    if count == 0:
        return []
    rows = -(-count // most_per_row)
    per_row = -(-count // rows)
    return [range(start, min(start + per_row, count)) for start in range(0, count, per_row)]
