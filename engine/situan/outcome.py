"""Who wins a 四团 hand: counting after three are out, 双关, and the early end (decided).

Teams are 0 (A: seats 0, 2) and 1 (B: seats 1, 3).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations
from typing import NamedTuple

HAND_POINTS = 300
WIN_POINTS = 200


def team_of(seat: int) -> int:
    return seat & 1


def win_threshold(team: int, carry: tuple[int, int] | None) -> int:
    """The hand points ``team`` needs to win.

    A fresh hand needs 200. In a carried-over hand the cumulative totals are compared, and as
    every hand hands out exactly 300, the team wins iff 2·p > 300 + carry_opponent − carry_own.
    """
    if carry is None:
        return WIN_POINTS
    own, other = carry[team], carry[1 - team]
    return (HAND_POINTS + other - own) // 2 + 1


def double_winner(out: Sequence[int], holding: Sequence[int]) -> int | None:
    """双关: the team whose two players are out while both opponents still hold cards."""
    # Both opponents holding and nobody else: exactly two holding, of one team.
    if len(holding) == 2 and team_of(holding[0]) == team_of(holding[1]):
        return 1 - team_of(holding[0])
    return None


def how_it_ends(
    finish: Sequence[int],
    holding: Sequence[int],
    captured: Sequence[int],
    hand_points: Sequence[int],
    table_points: int,
    table_seat: int | None,
    bottom_points: int,
    carry: tuple[int, int] | None,
    early_end: bool,
) -> tuple[str, int | None] | None:
    """Whether the hand is over now, and how: ``("double", team)`` (双关), ``("points", None)``
    (three out: the points decide) or ``("decided", team)`` (the winner can no longer change);
    None while it goes on. Asked after a player goes out and after a round is won."""
    winner = double_winner(finish, holding)
    if winner is not None:
        return "double", winner
    if len(finish) == 3:
        return "points", None
    if early_end:
        winner = decided_winner(
            finish, holding, captured, hand_points, table_points, table_seat, bottom_points, carry
        )
        if winner is not None:
            return "decided", winner
    return None


class Score(NamedTuple):
    """The points of an ended hand: each team's, the winner (None: carried over), the
    cumulative totals carried to the next hand, and the point cards the 4游 still held."""

    team_points: tuple[int, int]
    winner: int | None
    carry: tuple[int, int] | None
    remaining: int


def scored(
    ended_by: str,
    winner: int | None,
    order: Sequence[int],
    captured: Sequence[int],
    hand_points: Sequence[int],
    bottom_points: int,
    carry: tuple[int, int] | None,
) -> Score:
    """The `Score` of a hand ended as `how_it_ends` said. ``order`` is every seat, those out
    first in the order they went out; ``captured`` already holds the last round's points."""
    if ended_by != "points":
        team = (captured[0] + captured[2], captured[1] + captured[3])
        return Score(team, winner, None, 0)
    remaining = hand_points[order[3]]
    points = counted_team_points(order, captured, remaining, bottom_points)
    team = (points[0], points[1])
    if carry is None:
        if team[0] >= WIN_POINTS or team[1] >= WIN_POINTS:
            winner = 0 if team[0] >= WIN_POINTS else 1
        return Score(team, winner, None if winner is not None else team, remaining)
    totals = (carry[0] + team[0], carry[1] + team[1])
    if totals[0] != totals[1]:
        winner = 0 if totals[0] > totals[1] else 1
    return Score(team, winner, None if winner is not None else totals, remaining)


def counted_team_points(
    finish: Sequence[int], captured: Sequence[int], last_hand_points: int, bottom_points: int
) -> list[int]:
    """Team points once three are out (finish holds all four seats, the 4游 last).

    上游 takes its own points, the 4游's captured points and the bottom; 2游 and 3游 keep
    theirs; the point cards left in the 4游's hand go to the team opposing the 4游.
    """
    first, second, third, last = finish
    points = [0, 0]
    points[team_of(first)] += captured[first] + captured[last] + bottom_points
    points[team_of(second)] += captured[second]
    points[team_of(third)] += captured[third]
    points[1 - team_of(last)] += last_hand_points
    return points


def decided_winner(
    finish: Sequence[int],
    holding: Sequence[int],
    captured: Sequence[int],
    hand_points: Sequence[int],
    table_points: int,
    table_seat: int | None,
    bottom_points: int,
    carry: tuple[int, int] | None,
) -> int | None:
    """The team that wins whatever happens from here, or None while it can still change.

    "Whatever happens" is taken as the rules page says it: any order in which the players still
    holding cards go out, and any of them (or, for the cards on the table, the player of the
    round's last play) capturing any of the points not yet captured. A team wins for sure when
    in every such future it either makes 双关 or has at least its threshold in the worst case.
    """
    if not finish:
        return None  # with nobody out, either team can still make 双关
    for team in (0, 1):
        if _sure_win(
            team,
            finish,
            holding,
            captured,
            hand_points,
            table_points,
            table_seat,
            bottom_points,
            win_threshold(team, carry),
        ):
            return team
    return None


def _sure_win(
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
    # Every future has an order in which this team makes no 双关 (an opponent goes out next),
    # and none gives the team more than this: short of the threshold, the win is not sure.
    # (The cheap test first: a playout asks after every round once someone is out.)
    first_ours = team_of(finish[0]) == team  # the 上游 of every future: someone is out
    most = table_points + (bottom_points if first_ours else 0)
    for seat in range(4):
        if seat in holding:
            most += hand_points[seat] + captured[seat]
        elif team_of(seat) == team:
            most += captured[seat]
    if most < threshold:
        return False
    finished_ours = sum(captured[s] for s in finish if team_of(s) == team)
    # The round's last player takes the table's points; out already, it cannot change team.
    table_seat_diverts = (
        table_seat is not None and table_seat not in holding and team_of(table_seat) != team
    )
    for order in permutations(holding):
        # The seats go out in this order until one is left (the 4游, ``last``).
        *going, last = order
        if len(going) == 2 and team_of(going[1]) == team_of(last):
            # One out and three holding: once the first of them is out, the two left are
            # partners, and the other team has 双关.
            if team_of(last) == team:
                return False
            continue
        # The 4游's captured points go to the 上游's team; any other seat's to its own. The
        # points still to be captured are the team's for sure only if every seat that could
        # capture them counts for the team.
        worst = finished_ours + sum(captured[s] for s in going if team_of(s) == team)
        if first_ours:
            worst += captured[last] + bottom_points
        can_divert = not first_ours or any(team_of(s) != team for s in going)
        if not can_divert:
            # Every card still to be played ends with this team. The 4游's own cards too,
            # unless the 4游 is on this team and keeps them: then they go to the opponents.
            worst += sum(hand_points[s] for s in going)
            if team_of(last) != team:
                worst += hand_points[last]
            if not table_seat_diverts:
                worst += table_points
        if worst < threshold:
            return False
    return True
