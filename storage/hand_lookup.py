"""Finished hands found again, for a replay (`bot.commands.replay_commands`, the web's replay
page): a hand by its id whatever became of its table, the hand of a match by its number, and
a player's own hands, newest first.

Who played a hand is read from its ledger lines (a line per seat, people and AI players);
a practice hand leaves none, so it has no players here: only its own chat's credential opens
it (`adapters.web.hand_replay`)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

from storage.rows import JsonObject


@dataclass(frozen=True, slots=True)
class KeptHand:
    """A stored hand with what a replay of it needs: where it was played, its record (the
    start and the actions in order), its result (None: not finished) and who played it."""

    id: int
    chat: str
    match: str
    number: int
    start: JsonObject
    actions: list[JsonObject]
    result: JsonObject | None
    players: tuple[str, ...]
    """The keys of its ledger lines in seat order (empty: a practice hand, or unfinished)."""
    names: tuple[str, ...] = ()
    """The names its ledger lines give those players, in seat order."""

    def record(self) -> JsonObject:
        """The hand record (`/export`'s form) the engine replays."""
        return {**self.start, "actions": self.actions}


class HandLookups(ABC):
    """The hand reads of a `storage.base.Database`."""

    @abstractmethod
    async def kept_hand(self, hand_id: int) -> KeptHand | None:
        """The hand ``hand_id`` (None: no such hand)."""

    @abstractmethod
    async def hands_numbered(self, chat: str, number: int) -> list[tuple[int, str]]:
        """(id, match) of the hands of ``chat`` numbered ``number`` in their match, oldest
        first (one a match)."""

    @abstractmethod
    async def hands_played(self, user: str, limit: int) -> list[int]:
        """The ids of the last ``limit`` finished hands ``user`` played, newest first, in
        any chat and any match."""
