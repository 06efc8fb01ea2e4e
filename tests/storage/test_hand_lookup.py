"""Finished hands found again for a replay (issue 55), on SQLite and PostgreSQL: a hand by its id
once its table is gone, the hand of a match by its number, and a player's hands newest first
across chats and matches (an unfinished hand, or another player's, is none of theirs)."""

from __future__ import annotations

from storage import Database
from storage.hand_lookup import KeptHand
from storage.rows import ActionRow, LedgerLine


def lines(*users: str) -> list[LedgerLine]:
    return [LedgerLine(user, user.upper(), "1", False, "0") for user in users]


async def test_hands_are_found_by_id_number_and_player(db: Database):
    start = {"game": "situan", "seed": 7}
    async with db.transaction() as tx:
        first = await tx.start_hand("g1", "m1", 1, start)
        await tx.append_actions([ActionRow(first, 0, {"seat": 0, "act": "pass"})])
        await tx.finish_hand(first, "g1", {"winner": 0}, lines("ann", "bo", "ai:1", "cy"))
        second = await tx.start_hand("p9", "m2", 1, start)
        await tx.finish_hand(second, "p9", {"winner": 1}, lines("bo", "ann", "ai:2", "ai:3"))
        third = await tx.start_hand("g1", "m3", 1, start)
        await tx.finish_hand(third, "g1", {"winner": 2}, lines("cy", "dee", "ai:1", "ai:2"))
        running = await tx.start_hand("g1", "m3", 2, start)
        await tx.delete_table("g1")
    kept = await db.kept_hand(first)
    assert kept == KeptHand(
        first, "g1", "m1", 1, start, [{"seat": 0, "act": "pass"}], {"winner": 0},
        ("ann", "bo", "ai:1", "cy"), ("ANN", "BO", "AI:1", "CY"),
    )  # fmt: skip
    assert kept.record() == {**start, "actions": [{"seat": 0, "act": "pass"}]}
    unfinished = await db.kept_hand(running)
    assert unfinished is not None and unfinished.result is None and unfinished.players == ()
    assert await db.kept_hand(running + 100) is None
    assert await db.hands_numbered("g1", 1) == [(first, "m1"), (third, "m3")]
    assert await db.hands_numbered("g1", 2) == [(running, "m3")]
    assert await db.hands_played("ann", 5) == [second, first]
    assert await db.hands_played("ann", 1) == [second]
    assert await db.hands_played("dee", 5) == [third]
    assert await db.hands_played("eve", 5) == []
