"""Ratings on SQLite (`storage.ratings`): one writer at a time holds the file (a write
transaction locks the whole database), so the rows a transaction reads stay its own until
it commits without a lock of their own."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import Any

import aiosqlite

from storage.ratings import PlayerRating, RatingMove, RatingReads, RatingWrites

COLUMNS = "user, game, name, mu, sigma, hands"


class SqliteRatingWrites(RatingWrites):
    @property
    @abstractmethod
    def _db(self) -> aiosqlite.Connection:
        """The transaction's connection."""

    async def ratings_to_update(
        self, game: str, users: Sequence[str], mu: float, sigma: float
    ) -> dict[str, PlayerRating]:
        if not users:
            return {}
        # A row for a newcomer at once, as on PostgreSQL (where inserting it is what makes
        # it lockable): both back ends hold the same rows.
        await self._db.executemany(
            f"INSERT INTO ratings ({COLUMNS}) VALUES (?, ?, '', ?, ?, 0)"
            " ON CONFLICT (user, game) DO NOTHING",
            [(user, game, mu, sigma) for user in users],
        )
        marks = ", ".join("?" * len(users))
        async with self._db.execute(
            f"SELECT {COLUMNS} FROM ratings WHERE game = ? AND user IN ({marks})",
            (game, *users),
        ) as cursor:
            found = {row[0]: PlayerRating(*row) for row in await cursor.fetchall()}
        return {user: found[user] for user in users}

    async def save_ratings(
        self, game: str, hand_id: int, at: float, moves: Sequence[RatingMove]
    ) -> None:
        await self._db.executemany(
            f"INSERT INTO ratings ({COLUMNS}) VALUES (?, ?, ?, ?, ?, 1) ON CONFLICT (user, game)"
            " DO UPDATE SET name = excluded.name, mu = excluded.mu, sigma = excluded.sigma,"
            " hands = ratings.hands + 1",
            [(move.user, game, move.name, move.mu, move.sigma) for move in moves],
        )
        await self._db.executemany(
            "INSERT INTO rating_changes (user, game, hand, name, mu_before, sigma_before, mu,"
            " sigma, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (m.user, game, hand_id, m.name, m.mu_before, m.sigma_before, m.mu, m.sigma, at)
                for m in moves
            ],
        )


class SqliteRatingReads(RatingReads):
    @abstractmethod
    async def _all(self, sql: str, parameters: tuple[Any, ...] = ()) -> list[Any]: ...

    async def ratings_of(self, user: str) -> list[PlayerRating]:
        rows = await self._all(
            f"SELECT {COLUMNS} FROM ratings WHERE user = ? ORDER BY game", (user,)
        )
        return [PlayerRating(*row) for row in rows]

    async def rating_board(self, game: str, limit: int = 10) -> list[PlayerRating]:
        rows = await self._all(
            f"SELECT {COLUMNS} FROM ratings WHERE game = ? AND hands > 0"
            " ORDER BY mu - 3 * sigma DESC, user LIMIT ?",
            (game, limit),
        )
        return [PlayerRating(*row) for row in rows]

    async def rating_moves(self, game: str, since: float) -> list[RatingMove]:
        rows = await self._all(
            "SELECT user, name, mu_before, sigma_before, mu, sigma FROM rating_changes"
            " WHERE game = ? AND at >= ? ORDER BY rowid",
            (game, since),
        )
        return [RatingMove(*row) for row in rows]
