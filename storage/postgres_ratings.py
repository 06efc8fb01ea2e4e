"""Ratings on PostgreSQL (`storage.ratings`), for several bot processes on one database.

A hand's players are given a row first if they have none (``ON CONFLICT DO NOTHING``: a
second process inserting the same row at once waits for the first and inserts nothing),
then their rows are read ``FOR UPDATE`` in one order (by player, so two transactions locking
overlapping players cannot wait on each other): the locks hold until the commit."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence

import asyncpg
import asyncpg.pool

from storage.ratings import PlayerRating, RatingMove, RatingReads, RatingWrites

COLUMNS = "user_id, game, name, mu, sigma, hands"


class PostgresRatingWrites(RatingWrites):
    @property
    @abstractmethod
    def _db(self) -> asyncpg.pool.PoolConnectionProxy[asyncpg.Record]:
        """The transaction's connection."""

    async def ratings_to_update(
        self, game: str, users: Sequence[str], mu: float, sigma: float
    ) -> dict[str, PlayerRating]:
        if not users:
            return {}
        await self._db.execute(
            f"INSERT INTO ratings ({COLUMNS}) SELECT u, $2, '', $3, $4, 0"
            " FROM unnest($1::text[]) AS u ON CONFLICT (user_id, game) DO NOTHING",
            sorted(set(users)),
            game,
            mu,
            sigma,
        )
        rows = await self._db.fetch(
            f"SELECT {COLUMNS} FROM ratings WHERE game = $1 AND user_id = ANY($2::text[])"
            " ORDER BY user_id FOR UPDATE",
            game,
            list(users),
        )
        found = {row[0]: PlayerRating(*row) for row in rows}
        return {user: found[user] for user in users}

    async def save_ratings(
        self, game: str, hand_id: int, at: float, moves: Sequence[RatingMove]
    ) -> None:
        await self._db.executemany(
            f"INSERT INTO ratings ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, 1)"
            " ON CONFLICT (user_id, game) DO UPDATE SET name = EXCLUDED.name, mu = EXCLUDED.mu,"
            " sigma = EXCLUDED.sigma, hands = ratings.hands + 1",
            [(move.user, game, move.name, move.mu, move.sigma) for move in moves],
        )
        await self._db.executemany(
            "INSERT INTO rating_changes (user_id, game, hand, name, mu_before, sigma_before, mu,"
            " sigma, at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            [
                (m.user, game, hand_id, m.name, m.mu_before, m.sigma_before, m.mu, m.sigma, at)
                for m in moves
            ],
        )


class PostgresRatingReads(RatingReads):
    _pool: asyncpg.Pool[asyncpg.Record]

    async def ratings_of(self, user: str) -> list[PlayerRating]:
        rows = await self._pool.fetch(
            f'SELECT {COLUMNS} FROM ratings WHERE user_id = $1 ORDER BY game COLLATE "C"', user
        )
        return [PlayerRating(*row) for row in rows]

    async def rating_board(self, game: str, limit: int = 10) -> list[PlayerRating]:
        rows = await self._pool.fetch(
            f"SELECT {COLUMNS} FROM ratings WHERE game = $1 AND hands > 0"
            ' ORDER BY mu - 3 * sigma DESC, user_id COLLATE "C" LIMIT $2',
            game,
            limit,
        )
        return [PlayerRating(*row) for row in rows]

    async def rating_moves(self, game: str, since: float) -> list[RatingMove]:
        rows = await self._pool.fetch(
            "SELECT user_id, name, mu_before, sigma_before, mu, sigma FROM rating_changes"
            " WHERE game = $1 AND at >= $2 ORDER BY id",
            game,
            since,
        )
        return [RatingMove(*row) for row in rows]
