"""Matching a quick queue (issue 54): closest skill first, the window widening with time
waited, AI seats after quick_wait for those who accept them, blocks kept, and never the same
four twice in a row while anyone else could sit."""

from __future__ import annotations

import random

from bot.community.quick_matching import FIRST_WINDOW, WIDENING, Waiting, match

WAIT = 90.0


def people(*mus: float, since: float = 0.0) -> list[Waiting]:
    return [Waiting(f"p{i}", mu, since + i * 0.001) for i, mu in enumerate(mus)]


def test_four_close_people_sit_at_once_and_the_far_one_waits():
    queue = people(25, 26, 24, 25.5, 60)
    (table,) = match(queue, now=1.0, quick_wait=WAIT)
    assert table.users == {"p0", "p1", "p2", "p3"} and table.ai_seats == 0
    assert table.people[0].user == "p0"  # the longest waiting first


def test_the_nearest_to_the_longest_waiting_are_chosen():
    queue = [Waiting("anchor", 30, 0.0), *people(10, 29, 31, 40, 30.5, 20, since=1.0)]
    (table,) = match(queue, now=200.0, quick_wait=1000)
    assert table.users == {"anchor", "p1", "p2", "p4"}  # 29, 31, 30.5: the closest three


def test_the_window_widens_with_time_waited():
    gap = FIRST_WINDOW + 5 * WIDENING + 1.0  # out of reach at first, in reach later
    queue = people(25, 25 + gap, 25 + gap, 25 + gap)
    assert match(queue, now=0.0, quick_wait=WAIT) == []
    waited = (gap - FIRST_WINDOW) / WIDENING + 1
    (table,) = match(queue, now=waited, quick_wait=WAIT)
    assert len(table.people) == 4


def test_after_quick_wait_two_or_three_play_with_ai_seats_if_all_accept():
    queue = people(25, 25, 25)
    assert match(queue, now=WAIT - 1, quick_wait=WAIT) == []
    (table,) = match(queue, now=WAIT, quick_wait=WAIT)
    assert table.ai_seats == 1
    two = people(25, 25)
    assert match(two, now=WAIT, quick_wait=WAIT)[0].ai_seats == 2
    alone = people(25)
    assert match(alone, now=10 * WAIT, quick_wait=WAIT) == []  # one person: /new and /addbot
    declining = [*people(25, 25), Waiting("no", 25, 0.002, accepts_ai=False)]
    assert match(declining, now=WAIT, quick_wait=WAIT) == []


def test_blocked_players_never_meet_over_fifty_matches():
    draw = random.Random(7)
    mus = {f"u{i}": 25 + draw.uniform(-3, 3) for i in range(9)}
    blocks = {"u0": frozenset({"u1"})}  # u0 blocked u1: neither may sit with the other
    last: dict[str, frozenset[str]] = {}
    now, together = 0.0, 0
    waiting_since = dict.fromkeys(mus, 0.0)
    for _ in range(50):
        queue = [
            Waiting(user, mus[user], waiting_since[user], True, blocks.get(user, frozenset()))
            for user in mus
        ]
        now += WAIT
        tables = match(queue, now, WAIT, last)
        assert tables
        for table in tables:
            assert not {"u0", "u1"} <= table.users
            together += "u0" in table.users or "u1" in table.users
            for user in table.users:
                last[user] = table.users
                waiting_since[user] = now
    assert together >= 50  # they did play, each at their own tables


def test_never_the_same_four_twice_unless_nobody_else():
    queue = people(25, 25.1, 25.2, 25.3, 25.4)
    first = frozenset({"p0", "p1", "p2", "p3"})
    last = {user: first for user in first}
    (table,) = match(queue, now=1.0, quick_wait=WAIT, last_tables=last)
    assert table.users != first and "p4" in table.users
    only_four = people(25, 25.1, 25.2, 25.3)
    (again,) = match(only_four, now=1.0, quick_wait=WAIT, last_tables=last)
    assert again.users == first  # nobody else waits: the same four may play on


def test_the_nearest_walk_agrees_with_sorting_everyone():
    draw = random.Random(3)
    queue = [Waiting(f"r{i}", draw.uniform(0, 50), draw.uniform(0, 100)) for i in range(300)]
    now = 100.0
    tables = match(queue, now, quick_wait=1e9)
    seated: set[str] = set()
    for table in tables:
        anchor = table.people[0]
        reach = FIRST_WINDOW + WIDENING * (now - anchor.since)
        # Its three are the nearest of those not seated yet (by sorting them all).
        left = [p for p in queue if p.user not in seated]
        others = sorted(
            (p for p in left if p.user != anchor.user), key=lambda p: abs(p.mu - anchor.mu)
        )
        nearest = {p.user for p in others[:3]}
        assert {p.user for p in table.people[1:]} == nearest
        assert all(abs(p.mu - anchor.mu) <= reach for p in table.people)
        seated |= table.users
    assert len(tables) > 30
