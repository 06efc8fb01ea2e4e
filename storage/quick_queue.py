"""The quick queues (issue 54): who waits for a quick table, and the quick tables opened —
the interface both back ends implement.

Several processes may match one queue at once. A process matching a queue first *claims* its
waiting rows (`QuickWrites.claim_waiting`): on PostgreSQL ``SELECT … FOR UPDATE SKIP
LOCKED``, so rows another process has claimed are skipped, not waited for, and held until the
claiming transaction ends; then it seats the people it matched (`QuickWrites.seat`), which
takes their rows out of the queue and records the table, in the same transaction. A person
is therefore seated by one process only, and a table is recorded once (its chat is the key).

Not dumped: a queue is minutes long, and the tables opened live on as tables and hands.
Blocks are (who blocked, whom), kept until removed.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class QueueEntry:
    user: str
    game: str
    preset: str
    mu: float
    """Their μ at the game when they joined (matching is by μ: `bot.community.quick_matching`)."""
    since: float
    accepts_ai: bool = True
    lang: str = ""
    """The language they asked in (their platform's or their /lang); empty: the host's."""


class QuickWrites(ABC):
    """The quick-queue writes of a transaction (`storage.base.Transaction`)."""

    @abstractmethod
    async def join_queue(self, entry: QueueEntry) -> bool:
        """Put a person in a queue; False (and nothing changed) if they wait in one already."""

    @abstractmethod
    async def leave_queue(self, user: str) -> bool:
        """Take a person out of their queue; False if they were in none."""

    @abstractmethod
    async def claim_waiting(
        self, game: str, preset: str, platforms: frozenset[str] | None = None
    ) -> list[QueueEntry]:
        """The people waiting in one queue that no other transaction has claimed, oldest
        first, claimed by this one until it ends; only those of ``platforms`` (None: of
        every platform; `storage.platforms_of_users.platform_of`), the others left to the
        processes that reach them, never locked here."""

    @abstractmethod
    async def block(self, user: str, blocked: str, at: float) -> bool:
        """``user`` is never matched with ``blocked`` again; False if they were already."""

    @abstractmethod
    async def note_leave(self, user: str, at: float) -> None:
        """``user`` left a rated hand before its end, at ``at`` (three in a day pause their
        quick queue: `bot.commands.quick_commands`)."""

    @abstractmethod
    async def report(self, user: str, chat: str, hand: int, note: str, at: float) -> None:
        """``user`` reports hand ``hand`` (of ``chat``) to the operator, saying ``note``: the
        hand's record (kept with every hand) is what the operator reads."""

    @abstractmethod
    async def seat(self, chat: str, entries: Sequence[QueueEntry], at: float) -> None:
        """Take ``entries`` (claimed by this transaction) out of the queue and record the quick
        table ``chat`` opened for them at ``at``."""


class QuickReads(ABC):
    """The quick-queue reads of a `storage.base.Database`."""

    @abstractmethod
    async def queue_entry(self, user: str) -> QueueEntry | None:
        """Where the person waits (None: in no queue)."""

    @abstractmethod
    async def waiting_in(self, game: str, preset: str) -> int:
        """How many people wait in the queue of ``game`` and ``preset`` now."""

    @abstractmethod
    async def blocks_among(self, users: Sequence[str]) -> set[tuple[str, str]]:
        """(who blocked, whom) of every block either side of which is one of ``users``."""

    @abstractmethod
    async def leaves_since(self, user: str, since: float) -> list[float]:
        """When ``user`` left rated hands before their end, from ``since`` on, oldest first."""

    @abstractmethod
    async def last_hand_of(self, user: str) -> tuple[str, int] | None:
        """(chat, hand id) of the last finished hand ``user`` played (None: none yet)."""

    @abstractmethod
    async def reports(self) -> list[tuple[str, str, int, str, float]]:
        """(user, chat, hand, note, at) of every report, oldest first: the operator's list."""

    @abstractmethod
    async def names_of(self, users: Sequence[str]) -> dict[str, str]:
        """The latest name of each of ``users`` the bot knows (`Transaction.set_player`)."""

    @abstractmethod
    async def quick_tables(self, since: float = 0.0) -> list[tuple[str, tuple[str, ...]]]:
        """(chat, the people seated in order) of each quick table opened from ``since`` on,
        in the order they were opened."""
