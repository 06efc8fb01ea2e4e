"""Table leases: which bot process owns a table, when several share one database.

A lease is a row — the table's chat, the owning process, the address it takes forwarded
updates at, and when the lease runs out. The owner renews its leases while it runs; a process
that dies stops renewing, its leases run out, and another process claims the tables and
rebuilds them from their records. Every step a process stores first *holds* the leases of the
tables it touched, in the same transaction: if one has run out or gone to another process the
transaction rolls back (`LeaseLost`), so a process that stalled past its expiry can never
write over the new owner's steps.

Times are the processes' clocks (seconds since the epoch); the processes sharing a database
must agree on the time to well within a lease.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Lease:
    chat: str
    owner: str
    address: str
    """Where the owner takes updates forwarded by other processes ("" if it takes none)."""
    expires: float


class LeaseLost(Exception):
    """The tables of a step are no longer this process's; nothing of the step was stored."""

    def __init__(self, chats: Iterable[str]) -> None:
        self.chats = sorted(chats)
        super().__init__(f"lease lost for {', '.join(self.chats)}")


class LeaseWrites(ABC):
    """The lease writes of a transaction (`storage.base.Transaction`)."""

    @abstractmethod
    async def claim(self, chat: str, owner: str, address: str, now: float, until: float) -> Lease:
        """Take the lease of ``chat`` until ``until`` if nobody holds it, it ran out by
        ``now``, or ``owner`` holds it already; returns the lease in force afterwards (the
        other process's, when it could not be taken)."""

    @abstractmethod
    async def renew(self, owner: str, now: float, until: float) -> set[str]:
        """Move every lease ``owner`` still holds at ``now`` on to ``until``; returns their
        chats (a lease that ran out first is not renewed: it may have been claimed)."""

    async def hold(self, owner: str, chats: Sequence[str], now: float, until: float) -> None:
        """Renew the leases of ``chats``, raising `LeaseLost` (so the transaction rolls back)
        if ``owner`` does not hold every one of them at ``now``."""
        wanted = set(chats)
        if not wanted:
            return
        lost = wanted - await self._renew_these(owner, wanted, now, until)
        if lost:
            raise LeaseLost(lost)

    @abstractmethod
    async def _renew_these(self, owner: str, chats: set[str], now: float, until: float) -> set[str]:
        """Move the leases of ``chats`` that ``owner`` still holds at ``now`` on to ``until``;
        returns their chats."""

    @abstractmethod
    async def ask_for(self, chat: str, asker: str, address: str) -> None:
        """Ask the owner of ``chat``'s lease to hand it to ``asker`` (the process that receives
        the table's commands, as a Discord process its shards' channels), whose address for
        forwarded updates is ``address``."""

    @abstractmethod
    async def hand_over(self, owner: str, now: float, until: float) -> list[str]:
        """Give each lease of ``owner`` that another process asked for to that process, until
        ``until``; returns their chats (the asker takes them on its next renewal)."""

    @abstractmethod
    async def release(self, owner: str, chats: Sequence[str]) -> None:
        """Give up ``owner``'s leases of ``chats`` (another process may claim them at once)."""


class LeaseReads(ABC):
    """The lease reads of a `storage.base.Database`."""

    @abstractmethod
    async def leases_of(self, chats: Sequence[str], now: float) -> dict[str, Lease]:
        """The leases of ``chats`` still in force at ``now`` (a chat nobody holds is left out)."""

    @abstractmethod
    async def orphaned_tables(self, now: float) -> list[str]:
        """The chats of open tables nobody holds a lease of at ``now`` (their owner died)."""

    @abstractmethod
    async def tables_mentioning(self, text: str) -> list[tuple[str, str, str]]:
        """(chat, state, settings JSON) of the open tables whose settings contain ``text`` — a quick
        filter for finding where a player sits, confirmed by whoever reads the settings."""
