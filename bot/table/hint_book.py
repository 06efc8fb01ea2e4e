"""What a table remembers of the hints it gave in the hand being played: how many each seat
has had (against the table's ``hints_per_hand``), and the move each was last told, so that
the move, once played at that turn, is marked as hinted in the hand record."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bot.reading.table_options import UNLIMITED
from engine.actions import Action, Play


@dataclass(frozen=True)
class HintAsked:
    """A hint asked (`bot.hosting.hinting`), and where the table stood: the seat's view and legal
    actions only."""

    chat: str
    hand: int
    turn: int
    seat: int
    user: str
    lang: str
    game: str
    view: Any
    legal: tuple[Action, ...]


@dataclass
class HintBook:
    hand: int = 0
    """The hand the counts are of: a new hand starts them again."""
    used: Counter[int] = field(default_factory=Counter)
    given: dict[int, tuple[int, Action, Any]] = field(default_factory=dict)
    """Seat → (the turn it was given at, the hinted move, what the search saw: the web page
    says the why-line again in its reader's language)."""

    def _of(self, hand: int) -> None:
        if hand != self.hand:
            self.hand, self.used, self.given = hand, Counter(), {}

    def left(self, hand: int, seat: int, allowed: int) -> int | None:
        """Hints ``seat`` may still ask for in ``hand`` (None: no limit)."""
        self._of(hand)
        if allowed == UNLIMITED:
            return None
        return max(0, allowed - self.used[seat])

    def counts(self) -> dict[str, Any]:
        """What a restart keeps: the hints each seat had in the hand (not the moves told)."""
        return {"hand": self.hand, "used": {str(seat): n for seat, n in self.used.items()}}

    def restore(self, stored: Any) -> None:
        """The counts `counts` kept (nothing: a snapshot from before hints)."""
        if isinstance(stored, dict) and isinstance(stored.get("used"), dict):
            self.hand = int(stored.get("hand", 0))
            self.used = Counter({int(seat): int(n) for seat, n in stored["used"].items()})

    def note(self, hand: int, turn: int, seat: int, move: Action, weighing: Any = None) -> None:
        """A hint was given: counted, and its move kept to mark it when played."""
        self._of(hand)
        self.used[seat] += 1
        self.given[seat] = (turn, move, weighing)

    def hinted(self, hand: int, turn: int, move: Action) -> bool:
        """Whether ``move``, played now, is what its seat was told to play at this turn."""
        given = self.given.get(move.seat) if hand == self.hand else None
        return given is not None and given[0] == turn and same_move(given[1], move)

    def told(self, hand: int, turn: int, seat: int) -> Action | None:
        """The move ``seat`` was told at this turn, else None."""
        given = self.told_with(hand, turn, seat)
        return None if given is None else given[0]

    def told_with(self, hand: int, turn: int, seat: int) -> tuple[Action, Any] | None:
        """The move ``seat`` was told at this turn and what the search saw, else None."""
        given = self.given.get(seat) if hand == self.hand else None
        return (given[1], given[2]) if given is not None and given[0] == turn else None


def same_move(told: Action, played: Action) -> bool:
    """The same move, however its cards were written: a 四团 play typed by ranks (``7777``)
    is the hinted play of those ranks whatever suits the hint's cards had."""
    if not (isinstance(told, Play) and isinstance(played, Play)):
        return told == played
    if told.seat != played.seat:
        return False
    if told.ranks or played.ranks:
        return _ranks(told) == _ranks(played)
    return sorted(c.text for c in told.cards) == sorted(c.text for c in played.cards)


def _ranks(play: Play) -> list[str]:
    return sorted(play.ranks or [c.rank for c in play.cards])
