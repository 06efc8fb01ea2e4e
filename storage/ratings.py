"""Players' skill ratings, per game (`bot.community.skill_ratings` computes them): the interface
both back ends implement.

A rating is a row per player and game (μ, σ, how many rated hands, the latest name); each
change is a row too (who, in which hand, from what to what, when), so ``/top rating week``
can say who moved most. A hand's ratings are read and written inside the transaction that
stores its end: `RatingWrites.ratings_to_update` locks the rows it returns until the commit
(PostgreSQL: ``SELECT … FOR UPDATE``), so two processes finishing hands of one player at
once rate the second hand from the first one's result, never both from the same start.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PlayerRating:
    user: str
    game: str
    name: str
    mu: float
    sigma: float
    hands: int
    """Rated hands played (0: a rating only just made, never moved)."""


@dataclass(frozen=True, slots=True)
class RatingMove:
    """One player's rating before and after one hand."""

    user: str
    name: str
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float


class RatingWrites(ABC):
    """The rating writes of a transaction (`storage.base.Transaction`)."""

    @abstractmethod
    async def ratings_to_update(
        self, game: str, users: Sequence[str], mu: float, sigma: float
    ) -> dict[str, PlayerRating]:
        """The ratings of ``users`` at ``game``, locked until the transaction ends; a player
        with none yet gets (``mu``, ``sigma``) and no hands."""

    @abstractmethod
    async def save_ratings(
        self, game: str, hand_id: int, at: float, moves: Sequence[RatingMove]
    ) -> None:
        """Each player of ``moves`` takes their new rating, one more rated hand, and a row of
        the change (of hand ``hand_id``, at ``at``)."""


class RatingReads(ABC):
    """The rating reads of a `storage.base.Database`."""

    @abstractmethod
    async def ratings_of(self, user: str) -> list[PlayerRating]:
        """The player's ratings, one per game they were rated at, in game order."""

    @abstractmethod
    async def rating_board(self, game: str, limit: int = 10) -> list[PlayerRating]:
        """The best rated players of ``game`` by μ − 3σ (the display value's order), best
        first; only players with a rated hand."""

    @abstractmethod
    async def rating_moves(self, game: str, since: float) -> list[RatingMove]:
        """Every rating change at ``game`` from ``since`` on, in the order they were made."""
