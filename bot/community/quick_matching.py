"""Who sits with whom at a quick table: the people waiting in one queue (a game and preset)
are seated by closeness of skill, the window widening with time waited.

How, in order of who has waited longest (the *anchor*):

- The anchor's window is `FIRST_WINDOW` μ either side of their own μ (OpenSkill's skill
  estimate, `bot.community.skill_ratings`), widened by `WIDENING` μ for each second they have
  waited: a newcomer meets people of close skill, and someone who has waited a minute meets whoever
  is nearest. (μ, not the display value: matching wants the best guess of skill, not the
  conservative one a leaderboard shows.) - The three people waiting nearest to the anchor's μ within
  that window are seated with them, skipping anyone either of two people has blocked (`/block`), in
  both directions. - The same four as someone's last quick table are not seated together again while
  anyone else in the window could take the farthest one's place. - Four found: a table. Fewer, once
  the anchor has waited `quick_wait` seconds: a table of those found (two or three) with AI players
  in the other seats — if every one of them accepted AI seats; else they wait on.

The function is pure: the queue's storage (`storage`) and the clock are the caller's.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

FIRST_WINDOW = 2.0
"""μ either side of the anchor's at first: about a quarter of a newcomer's σ (25/3)."""
WIDENING = 0.1
"""μ the window grows by for each second waited: ±11 after the default 90 s, wider than a
newcomer's whole uncertainty, so nobody waits long for want of someone close."""
SEATS = 4
FEWEST_PEOPLE = 2
"""A table opens with AI seats only for two or three people: one person alone may play with
AI players at any table (/new, /addbot)."""


@dataclass(frozen=True, slots=True)
class Waiting:
    user: str
    mu: float
    since: float
    accepts_ai: bool = True
    blocked: frozenset[str] = field(default_factory=frozenset)
    """Whom they blocked and who blocked them."""


@dataclass(frozen=True, slots=True)
class Match:
    people: tuple[Waiting, ...]
    """Seated in this order (the anchor first)."""

    @property
    def ai_seats(self) -> int:
        return SEATS - len(self.people)

    @property
    def users(self) -> frozenset[str]:
        return frozenset(person.user for person in self.people)


def window(person: Waiting, now: float) -> float:
    return FIRST_WINDOW + WIDENING * max(0.0, now - person.since)


def apart(a: Waiting, b: Waiting) -> bool:
    return b.user in a.blocked or a.user in b.blocked


def match(
    queue: Sequence[Waiting],
    now: float,
    quick_wait: float,
    last_tables: Mapping[str, frozenset[str]] | None = None,
) -> list[Match]:
    """The tables to open now from one queue (each person at one table at most)."""
    last = last_tables or {}
    by_skill = sorted(queue, key=lambda p: (p.mu, p.since, p.user))
    skills = [person.mu for person in by_skill]
    seated: set[str] = set()
    tables = []
    for anchor in sorted(queue, key=lambda p: (p.since, p.user)):
        if anchor.user in seated:
            continue
        reach = window(anchor, now)
        nearby = _nearest(by_skill, skills, anchor, reach, seated)
        group = _group(anchor, nearby)
        if len(group) == SEATS and _repeated(group, last):
            group = _other_than_last(anchor, nearby, group, last)
        enough = len(group) == SEATS or (
            len(group) >= FEWEST_PEOPLE
            and now - anchor.since >= quick_wait
            and all(person.accepts_ai for person in group)
        )
        if enough:
            tables.append(Match(tuple(group)))
            seated.update(person.user for person in group)
    return tables


def _nearest(
    by_skill: list[Waiting],
    skills: list[float],
    anchor: Waiting,
    reach: float,
    seated: set[str],
) -> list[Waiting]:
    """Everyone else unseated within ``reach`` of the anchor's μ, nearest first (walking out
    both ways from the anchor's place in the skill order: no sort per anchor)."""
    low = bisect.bisect_left(skills, anchor.mu - reach)
    high = bisect.bisect_right(skills, anchor.mu + reach)
    at = bisect.bisect_left(skills, anchor.mu)
    left, right = at - 1, at
    found = []
    while left >= low or right < high:
        take_left = right >= high or (
            left >= low and anchor.mu - skills[left] <= skills[right] - anchor.mu
        )
        person = by_skill[left] if take_left else by_skill[right]
        if take_left:
            left -= 1
        else:
            right += 1
        if person.user != anchor.user and person.user not in seated:
            found.append(person)
    return found


def _group(
    anchor: Waiting, nearby: Sequence[Waiting], skip: frozenset[str] = frozenset()
) -> list[Waiting]:
    group = [anchor]
    for person in nearby:
        if len(group) == SEATS:
            break
        if person.user in skip or any(apart(person, other) for other in group):
            continue
        group.append(person)
    return group


def _repeated(group: Sequence[Waiting], last: Mapping[str, frozenset[str]]) -> bool:
    users = frozenset(person.user for person in group)
    return any(last.get(person.user) == users for person in group)


def _other_than_last(
    anchor: Waiting,
    nearby: Sequence[Waiting],
    group: list[Waiting],
    last: Mapping[str, frozenset[str]],
) -> list[Waiting]:
    """The group with its farthest members left out one by one, nearest first, until it is
    not the same four again; the same four when nobody else can be found."""
    for member in reversed(group[1:]):
        other = _group(anchor, nearby, frozenset({member.user}))
        if len(other) == SEATS and not _repeated(other, last):
            return other
    return group
