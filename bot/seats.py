"""A table's seats: who sits where, human or AI, ready for the next hand or gone."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Seat:
    user: str | None
    """The player's id; None for an AI player."""
    name: str
    ready: bool = False
    left: bool = False
    level: str = "normal"
    """An AI player's level (see `engine.ai.LEVELS`)."""

    @property
    def ai(self) -> bool:
        return self.user is None
