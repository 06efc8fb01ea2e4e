"""Ratings storage (issue 54) on SQLite and PostgreSQL: a rating per player and game, each
change kept, the board by μ − 3σ, and two processes rating one player at once on PostgreSQL
rate the second hand from the first one's result."""

from __future__ import annotations

import asyncio

import asyncpg

from storage import Database, open_database
from storage.ratings import PlayerRating, RatingMove
from tests.pg_server import PostgresServer


async def test_a_new_player_starts_where_asked_and_takes_each_hand(db: Database):
    async with db.transaction() as tx:
        found = await tx.ratings_to_update("situan", ["tg:1", "dc:2"], 25.0, 8.0)
        assert found == {
            "tg:1": PlayerRating("tg:1", "situan", "", 25.0, 8.0, 0),
            "dc:2": PlayerRating("dc:2", "situan", "", 25.0, 8.0, 0),
        }
        await tx.save_ratings(
            "situan",
            7,
            100.0,
            [
                RatingMove("tg:1", "Ann", 25.0, 8.0, 27.5, 7.5),
                RatingMove("dc:2", "Bo", 25.0, 8.0, 22.5, 7.5),
            ],
        )
    async with db.transaction() as tx:
        again = await tx.ratings_to_update("situan", ["tg:1"], 25.0, 8.0)
        assert again["tg:1"] == PlayerRating("tg:1", "situan", "Ann", 27.5, 7.5, 1)
        await tx.save_ratings(
            "situan", 8, 200.0, [RatingMove("tg:1", "Ann A", 27.5, 7.5, 30.0, 7.0)]
        )
    assert await db.ratings_of("tg:1") == [PlayerRating("tg:1", "situan", "Ann A", 30.0, 7.0, 2)]
    assert await db.ratings_of("tg:9") == []
    assert await db.rating_moves("situan", 150.0) == [
        RatingMove("tg:1", "Ann A", 27.5, 7.5, 30.0, 7.0)
    ]
    assert len(await db.rating_moves("situan", 0.0)) == 3
    assert await db.rating_moves("erqiwang", 0.0) == []


async def test_the_board_orders_by_the_conservative_estimate_and_leaves_out_the_unplayed(
    db: Database,
):
    async with db.transaction() as tx:
        await tx.ratings_to_update("erqiwang", ["a", "b", "c", "d"], 25.0, 8.0)
        await tx.save_ratings(
            "erqiwang",
            1,
            1.0,
            [
                RatingMove("a", "A", 25, 8, 40.0, 8.0),  # 16
                RatingMove("b", "B", 25, 8, 30.0, 2.0),  # 24: surer, so higher
                RatingMove("c", "C", 25, 8, 20.0, 1.0),  # 17
            ],
        )
    board = await db.rating_board("erqiwang")
    assert [row.user for row in board] == ["b", "c", "a"]  # d played no rated hand
    assert [row.user for row in await db.rating_board("erqiwang", 2)] == ["b", "c"]
    assert await db.rating_board("situan") == []


async def test_a_rolled_back_hand_moves_nobody(db: Database):
    try:
        async with db.transaction() as tx:
            await tx.ratings_to_update("situan", ["a"], 25.0, 8.0)
            await tx.save_ratings("situan", 1, 1.0, [RatingMove("a", "A", 25, 8, 30, 7)])
            raise RuntimeError("the step failed")
    except RuntimeError:
        pass
    assert await db.ratings_of("a") == []
    assert await db.rating_moves("situan", 0.0) == []


async def test_two_processes_rate_one_player_one_after_the_other(postgres_server: PostgresServer):
    """Two databases (as two processes) each finish a hand of the same player at once: the
    second's read waits on the first's lock until it commits, so both hands count (read
    unlocked, both would start from 25 and one gain would be lost)."""
    address = postgres_server.database()
    first, second = await open_database(address), await open_database(address)
    watcher = await asyncpg.connect(address)
    try:
        async with first.transaction() as tx:
            await tx.ratings_to_update("situan", ["x"], 25.0, 8.0)

        async def second_hand() -> None:
            async with second.transaction() as tx:
                now = (await tx.ratings_to_update("situan", ["x"], 25.0, 8.0))["x"]
                move = RatingMove("x", "X", now.mu, now.sigma, now.mu + 2.0, now.sigma)
                await tx.save_ratings("situan", 1, 1.0, [move])

        async with first.transaction() as tx:
            now = (await tx.ratings_to_update("situan", ["x"], 25.0, 8.0))["x"]
            waiting = asyncio.create_task(second_hand())
            # Awaited, not timed: the second waits on the lock, or (unlocked) it is done.
            while not waiting.done() and not await watcher.fetchval(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                " AND datname = current_database()"
            ):
                await asyncio.sleep(0.01)
            assert not waiting.done(), "the second process read the rating while it was held"
            move = RatingMove("x", "X", now.mu, now.sigma, now.mu + 1.0, now.sigma)
            await tx.save_ratings("situan", 1, 1.0, [move])
        await waiting
        (kept,) = await first.ratings_of("x")
        assert (kept.hands, kept.mu) == (2, 28.0)
    finally:
        await watcher.close()
        await first.close()
        await second.close()
