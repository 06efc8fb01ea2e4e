"""The simultaneous-presses bench, smaller: a move pressed three ways at once (a double tap and
a re-delivered update) is applied once, and the re-delivered copy is told apart, every round."""

from __future__ import annotations

from bench.simultaneous_presses import run


async def test_three_presses_at_once_apply_one_move_every_round() -> None:
    bench = await run(rounds=400, seed=3)
    assert bench.rounds == 400
    assert bench.applied_twice == 0
    assert bench.none_applied == 0
    assert bench.copies_let_through == 0
