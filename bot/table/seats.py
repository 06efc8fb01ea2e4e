"""A table's seats: who sits where, human or AI, ready for the next hand or gone."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Seat:
    user: str | None
    """The player's id; None for an AI player."""
    name: str
    ready: bool = False
    left: bool = False
    level: str = "normal"
    """An AI player's level (see `engine.ai.LEVELS`)."""
    stands_in_for: str | None = None
    """An AI player that took the seat of this person (removed by /kick in a hand): they may
    take it back between hands with /join."""
    ai: bool = field(init=False, repr=False, compare=False)
    """An AI player sits here (no user). Kept, not derived: it is asked several times at
    every action, and a seat never changes its user (a new player gets a new `Seat`)."""

    def __post_init__(self) -> None:
        self.ai = self.user is None
