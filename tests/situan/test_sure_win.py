"""The early end's test of a sure win (`outcome._sure_win`) against the futures walked seat
by seat: every order in which the seats still holding go out, each seat appended and 双关
looked for after each, as the rules page says it."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import permutations

from engine.situan.outcome import _sure_win, double_winner, team_of


def sure_win_walked(
    team: int,
    finish: Sequence[int],
    holding: Sequence[int],
    captured: Sequence[int],
    hand_points: Sequence[int],
    table_points: int,
    table_seat: int | None,
    bottom_points: int,
    threshold: int,
) -> bool:
    capturers = list(holding)
    if table_seat is not None and table_seat not in capturers:
        capturers.append(table_seat)
    for order in permutations(holding):
        out, left = list(finish), list(holding)
        doubled: int | None = None
        for seat in order:
            if len(out) == 3:
                break
            out.append(seat)
            left.remove(seat)
            doubled = double_winner(out, left)
            if doubled is not None:
                break
        if doubled is not None:
            if doubled != team:
                return False
            continue
        first, last = out[0], left[0]
        teams = {s: team_of(first) if s == last else team_of(s) for s in range(4)}
        worst = sum(captured[s] for s in out if team_of(s) == team)
        if team_of(first) == team:
            worst += captured[last] + bottom_points
        if all(teams[s] == team for s in holding):
            worst += sum(hand_points[s] for s in holding if s != last)
            if team_of(last) != team:
                worst += hand_points[last]
        if all(teams[s] == team for s in capturers):
            worst += table_points
        if worst < threshold:
            return False
    return True


def test_sure_win_is_every_future_walked_seat_by_seat() -> None:
    rng = random.Random(7)
    verdicts = set()
    for _ in range(20000):
        seats = [0, 1, 2, 3]
        rng.shuffle(seats)
        out = rng.choice((1, 2))
        finish, holding = seats[:out], seats[out:]
        captured = [rng.choice((0, 5, 10, 20, 40, 60, 100, 150)) for _ in range(4)]
        hand_points = [0 if s in finish else rng.choice((0, 5, 10, 30, 60)) for s in range(4)]
        table = rng.choice((0, 5, 10, 25, 50))
        table_seat = rng.choice((None, 0, 1, 2, 3))
        bottom = rng.choice((0, 5, 10, 20))
        threshold = rng.choice((50, 100, 150, 200, 250))
        team = rng.randrange(2)
        args = (team, finish, holding, captured, hand_points, table, table_seat, bottom, threshold)
        verdict = _sure_win(*args)
        assert verdict == sure_win_walked(*args), args
        verdicts.add(verdict)
    assert verdicts == {True, False}
