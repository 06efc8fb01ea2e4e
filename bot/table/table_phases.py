"""Where a table is in its life (`bot.table.state.Table.state`)."""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """Where a table is: seating people, playing a hand, between two hands of a match, or
    closed (its match over). Stored as its value."""

    LOBBY = "lobby"
    PLAYING = "playing"
    BETWEEN = "between"
    CLOSED = "closed"
