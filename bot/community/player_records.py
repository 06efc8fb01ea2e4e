"""Records and achievements per player per group, counted from the stored hand records.

Nothing here is stored: a hand's result (the hand record's ``result``) and who sat where
(its ledger lines) say all a record needs, so the figures of any group can be rebuilt from
its history at any time — `fold` over its finished hands gives the same figures whether it
is run once over all of them or hand by hand as they finish (`bot.community.record_book`).

What each game adds — 上游, 双关 and 墩 in 四团; 冲关 and the declarer's bids in 二七王 — is
read by the game's own reader (`bot.games.RECORD_READERS`), as *marks* (counted: ``double``,
``bonus:皇后``, ``made:≤60``) and *sizes* (the largest kept: ``dun``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

from bot.i18n import N_
from storage.rows import FinishedHand

AI_PREFIX = "ai:"
"""Ledger keys of AI seats: they keep no records."""


@dataclass(frozen=True, slots=True)
class SeatFacts:
    """What one seat's hand adds to its player's record."""

    marks: tuple[str, ...] = ()
    sizes: tuple[tuple[str, int], ...] = ()


class RecordReader(Protocol):
    """A game's reading of its hands for records, and the achievements in its own terms."""

    def seat_facts(self, result: Mapping[str, Any], seat: int) -> SeatFacts: ...

    @property
    def achievements(self) -> Sequence[Achievement]: ...

    def stats_lines(self, lang: str, record: PlayerRecord) -> list[str]: ...

    def rated_results(self, result: Mapping[str, Any]) -> list[list[list[int]]] | None:
        """What a finished hand is rated as (`bot.community.skill_ratings`): one or more
        results, each the seats of its teams, the winners first, rated by the library in
        turn; None when the hand decides nothing to rate."""
        ...

    @property
    def ai_ratings(self) -> Mapping[str, tuple[float, float]]:
        """Each AI level's fixed rating (μ, σ) at this game, measured by
        ``bench/ai_ratings.py``."""
        ...


@dataclass(frozen=True, slots=True)
class Achievement:
    """A named feat: ``code`` is stored once it is announced; ``title`` a message id."""

    code: str
    title: str
    earned: Callable[[PlayerRecord], bool]


@dataclass
class PlayerRecord:
    """One player's figures in one group."""

    name: str = ""
    hands: int = 0
    wins: int = 0
    streak: int = 0
    """Hands won in a row, up to the last one."""
    best_streak: int = 0
    total: Fraction = Fraction(0)
    best_hand: Fraction = Fraction(0)
    """The biggest single-hand win (0: none won yet)."""
    marks: Counter[str] = field(default_factory=Counter)
    sizes: dict[str, int] = field(default_factory=dict)
    games: Counter[str] = field(default_factory=Counter)
    """Hands played per game."""

    def add(self, name: str, game: str, amount: Fraction, facts: SeatFacts) -> None:
        self.name = name
        self.hands += 1
        self.games[game] += 1
        self.total += amount
        if amount > 0:
            self.wins += 1
            self.streak += 1
            self.best_streak = max(self.best_streak, self.streak)
            self.best_hand = max(self.best_hand, amount)
        else:
            self.streak = 0
        self.marks.update(facts.marks)
        for what, size in facts.sizes:
            self.sizes[what] = max(self.sizes.get(what, 0), size)


Records = dict[str, PlayerRecord]
"""A group's records, by player key."""

STREAK = 5
COMMON_ACHIEVEMENTS: tuple[Achievement, ...] = (
    Achievement("streak5", N_("five hands won in a row"), lambda r: r.best_streak >= STREAK),
)
"""Achievements every game has."""


def counted(hand: FinishedHand, readers: Mapping[str, RecordReader]) -> bool:
    """Whether a finished hand counts: a void hand (二七王 everyone passed) does not, nor a
    hand of a game no reader knows."""
    return hand.game in readers and not hand.result.get("redeal") and bool(hand.lines)


def fold(
    records: Records, hands: Iterable[FinishedHand], readers: Mapping[str, RecordReader]
) -> Records:
    """``records`` with ``hands`` (oldest first) added; returns ``records``."""
    for hand in hands:
        if not counted(hand, readers):
            continue
        reader = readers[hand.game]
        for seat, (user, name, amount) in enumerate(hand.lines):
            if user.startswith(AI_PREFIX):
                continue
            record = records.setdefault(user, PlayerRecord())
            record.add(name, hand.game, Fraction(amount), reader.seat_facts(hand.result, seat))
    return records


def achievements_of(game: str, readers: Mapping[str, RecordReader]) -> tuple[Achievement, ...]:
    reader = readers.get(game)
    return COMMON_ACHIEVEMENTS + (tuple(reader.achievements) if reader is not None else ())


def earned(
    records: Records, users: Iterable[str], game: str, readers: Mapping[str, RecordReader]
) -> list[tuple[str, Achievement]]:
    """(user, achievement) of everything ``users`` have earned at ``game`` by their records."""
    found = []
    for user in users:
        record = records.get(user)
        if record is None:
            continue
        found += [(user, a) for a in achievements_of(game, readers) if a.earned(record)]
    return found


Standings = dict[str, list[Any]]
"""Player key → [name, total, hands] over some hands, in the order the players first played."""


def tally(standings: Standings, hand: FinishedHand) -> None:
    """Add one counted hand's amounts to ``standings`` (AI seats are not ranked)."""
    for user, name, amount in hand.lines:
        if user.startswith(AI_PREFIX):
            continue
        entry = standings.setdefault(user, [name, Fraction(0), 0])
        entry[0] = name
        entry[1] += Fraction(amount)
        entry[2] += 1


def best(standings: Standings, limit: int = 10) -> list[tuple[str, Fraction, int]]:
    """(name, total, hands) of the best ``limit`` players, best first; ties by who played
    first."""
    ranked = sorted(standings.values(), key=lambda entry: entry[1], reverse=True)[:limit]
    return [(name, total, count) for name, total, count in ranked]


def ranking(
    hands: Iterable[FinishedHand],
    since: float | None,
    game: str | None,
    readers: Mapping[str, RecordReader],
    limit: int = 10,
) -> list[tuple[str, Fraction, int]]:
    """(name, total, hands) of the best players over the hands started at ``since`` or later
    (None: all) of ``game`` (None: every game), best first; ties by who played first."""
    standings: Standings = {}
    for hand in hands:
        if not counted(hand, readers) or (since is not None and hand.started < since):
            continue
        if game is not None and hand.game != game:
            continue
        tally(standings, hand)
    return best(standings, limit)
