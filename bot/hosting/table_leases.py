"""Sharing a database with other bot processes: each table is one process's at a time, by a
lease in storage (`storage.leases`).

A process takes a table's lease before it runs a command there, holds it in every step it
stores (a step of a table that went to another process rolls back and is dropped, never
sent), renews its leases on the heartbeat, and picks up the tables whose owner died — their
leases ran out — rebuilding them from their records with their timers resumed. It also says
where an update belongs (`forward_address`), so that whichever process receives one can hand
it to the table's owner.

`Leases` is one of the `bot.hosting.manager.TableManager`'s collaborators; without an `Ownership`
(a single process, the SQLite default) nothing here runs.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from bot.community.quick_seating import is_quick
from bot.hosting.keeping import TableKeeper
from bot.hosting.open_tables import OpenTables
from bot.hosting.process_identity import Ownership
from bot.hosting.quick_reach import EVERYONE, Reach
from bot.i18n import N_
from bot.ops.defaults import LEASE_SECONDS
from bot.ops.logs import table_context
from bot.reading.command import Command
from bot.table.state import PLAYING
from storage import Database
from storage.leases import Lease

log = logging.getLogger(__name__)
ORPHAN_SCAN = 1.0
"""How often a process looks for tables whose owner died (at most a third of a lease)."""
HANDED_OVER = N_("This table moved to another of the bot's servers; play on.")
"""What the group is told when a live process hands its table to another (a dead owner's
table says it was restored after a restart)."""
NOBODY = ""
"""The owner of a lease listed for a quick table nobody holds and this process may not
(`Leases._may_hold`): it waits for a process that hears each of its players."""
ELSEWHERE = N_(
    "Your table is run by another of this bot's servers: play it with the buttons at the table."
)
"""Said to a private command for a table another process holds (there is no handing on a
Discord direct message; Telegram's are handed on before they get here)."""
QUICK_TABLE_WAITS = N_(
    "Your quick table is waiting for the server that runs it, which is starting again. "
    "Try again in a minute: the hand goes on where it stopped."
)
"""Said to a player of a quick table whose process died, at a process that cannot reach
every player there (`bot.hosting.quick_reach`)."""
TAKEOVERS_PER_PASS = 100
"""At most this many of a dead process's tables are taken over in one timer pass, so that a
process taking over thousands still renews its own leases and runs its tables meanwhile."""

__all__ = ["LEASE_SECONDS", "Leases", "Ownership"]


class Leases:
    """The leases of a `bot.hosting.manager.TableManager` (``ownership`` None: it shares
    nothing)."""

    def __init__(
        self,
        db: Database,
        tables: OpenTables,
        keeper: TableKeeper,
        clock: Callable[[], float],
        ownership: Ownership | None,
        reach: Reach = EVERYONE,
    ) -> None:
        self.db = db
        self.tables = tables
        self.keeper = keeper
        self.clock = clock
        self.ownership = ownership
        self.reach = reach
        """Whose quick tables this process may hold (`bot.hosting.quick_reach`)."""
        self.held: set[str] = set()
        """The chats whose lease this process holds (with ``ownership``)."""
        self._renewed_at = self._scanned_at = float("-inf")

    def _until(self) -> float:
        assert self.ownership is not None
        return self.clock() + self.ownership.seconds

    def lose(self, chats: list[str]) -> None:
        """Tables that are another process's now: forgotten here, nothing more sent."""
        for chat in chats:
            self.held.discard(chat)
            if self.tables.pop(chat) is not None:
                log.warning("table %s went to another process; dropped here", chat)
            self.keeper.forget(chat)

    async def take(self, chat: str, handed: bool = False) -> Lease | None:
        """Take (or keep) the lease of ``chat`` before acting there; a table this process did
        not have is rebuilt from storage first. None: this process holds it now; else the
        lease of the process that does."""
        if self.ownership is None or chat in self.held:
            return None  # held: the step's own transaction checks it is still (`_hold`)
        lease = await self._claim(chat)
        if chat not in self.held:
            self.lose([chat])
            return lease
        await self._take_over(chat, handed)
        return None

    async def _claim(self, chat: str) -> Lease:
        """Claim the lease of ``chat`` (held here from now on if that worked); returns the
        lease in force afterwards."""
        ownership = self.ownership
        assert ownership is not None
        now = self.clock()
        async with self.db.transaction() as tx:
            lease = await tx.claim(chat, ownership.owner, ownership.address, now, self._until())
        if lease.owner == ownership.owner:
            self.held.add(chat)
        return lease

    async def _take_over(self, chat: str, handed: bool) -> None:
        """A table that was another process's (or nobody's) is ours now: rebuilt from what
        storage holds, its players told, its timer resumed with the time left at its last
        save (the time it waited for a new owner is not counted against anyone)."""
        self.tables.pop(chat)
        for stored in await self.db.open_tables(chat):
            with table_context(chat):
                line = HANDED_OVER if handed else None
                await self.keeper.rebuild(stored, None, announce=True, line=line)
                log.info("table taken over by %s", self.ownership)

    async def claim_at_start(self, chat: str) -> bool:
        """At start-up, a table is restored here only if its lease is free; the others run
        elsewhere."""
        if self.ownership is None:
            return True
        if not await self._may_hold(chat):
            return False  # a quick table with a player only another process hears
        return (await self._claim(chat)).owner == self.ownership.owner

    async def _may_hold(self, chat: str) -> bool:
        """Whether this process may hold the table of ``chat``: any group's; a quick table's
        only if it reaches every player there (`bot.hosting.quick_reach`). One it may not
        waits, its lease run out, for a process that reaches them all (started again)."""
        if not is_quick(chat) or self.reach.platforms is None:
            return True
        stored = await self.db.open_tables(chat)
        users = [user for table in stored for user in people_seated(table.settings)]
        return all(self.reach.reaches(user) for user in users)

    async def keep_leases(self) -> None:
        """On the timer passes, every third of a lease: hand over the tables another process
        asked for, renew the rest, drop what was lost, give up the leases of chats with no
        open table, and take the tables handed to this process; and every second, take over
        the tables whose owner died."""
        ownership = self.ownership
        if ownership is None:
            return
        now = self.clock()
        if now - self._renewed_at >= ownership.seconds / 3:
            self._renewed_at = now
            async with self.db.transaction() as tx:
                await tx.hand_over(ownership.owner, now, self._until())
                renewed = await tx.renew(ownership.owner, now, self._until())
                # Decided inside the transaction: a claim waits for it (one writer), and a
                # command finding its chat no longer held claims it again after the release.
                idle = {chat for chat in self.held if self._idle(chat)}
                self.held -= idle
                await tx.release(ownership.owner, sorted(idle))
            # What storage no longer has as ours went to another process (or was handed on).
            self.lose([chat for chat in self.held | set(self.tables) if chat not in renewed])
            for chat in sorted(renewed - self.held - idle):  # handed to this process
                async with self.tables.lock(chat):
                    await self.take(chat, handed=True)
        if now - self._scanned_at >= min(ORPHAN_SCAN, ownership.seconds / 3):
            self._scanned_at = now
            orphans = await self.db.orphaned_tables(now)
            mine = [chat for chat in orphans if await self._may_hold(chat)]
            for chat in mine[:TAKEOVERS_PER_PASS]:  # the rest next time: renewals go on
                async with self.tables.lock(chat):
                    try:
                        await self.take(chat)
                    except Exception:
                        log.exception("table %s could not be taken over", chat)
                        self.lose([chat])

    async def release_leases(self) -> None:
        """Stopping cleanly: every lease given up, so that the other processes (or this one,
        started again) take the tables at once rather than after their lease."""
        if self.ownership is None or not self.held:
            return
        async with self.db.transaction() as tx:
            await tx.release(self.ownership.owner, sorted(self.held))
        self.held.clear()

    def _idle(self, chat: str) -> bool:
        table = self.tables.get(chat)
        return (table is None or not table.is_open()) and not self.tables.is_locked(chat)

    async def forward_address(self, chat: str, user: str, private: bool) -> str | None:
        """Where an update from ``user`` in ``chat`` belongs, asked as it arrives: None for
        this process, else the address of the process that owns its table. A group's table
        nobody holds is claimed here and now, so the updates that follow (wherever they
        arrive) find their owner. A private chat belongs where the player's table is (a
        running hand first); one whose owner died is taken over here."""
        ownership = self.ownership
        if ownership is None:
            return None
        if not private:
            async with self.tables.lock(chat):
                lease = await self.take(chat)
            return None if lease is None else lease.address or None
        if self.tables.seating(user):
            return None
        for lease in await self.players_leases_elsewhere(user):
            if lease.address:
                return lease.address
        return None

    async def where_to_play(self, command: Command) -> str | None:
        """Sharing the database, a private command may be for a table another process holds
        (a Discord direct message reaches shard 0's process): a button of that table, or a
        typed command of a player seated nowhere here. Returns what to tell them then (None:
        play here). A table whose owner died is taken over here instead (by
        `forward_address`); a quick table this process may not hold waits for one that may."""
        assert self.ownership is not None
        lease = (await self.db.leases_of([command.chat], self.clock())).get(command.chat)
        if lease is not None:  # a button of a table, pressed in a private chat
            return ELSEWHERE if lease.owner != self.ownership.owner else None
        if self.tables.seating(command.user):
            return None
        elsewhere = await self.players_leases_elsewhere(command.user)
        if self.tables.seating(command.user):
            return None  # one was taken over here on the way
        if any(lease.owner == NOBODY for lease in elsewhere):
            return QUICK_TABLE_WAITS
        return ELSEWHERE if elsewhere else None

    async def players_leases_elsewhere(self, user: str) -> list[Lease]:
        """The leases other processes hold of the open tables where ``user`` sits (running
        hands first); a table of theirs nobody holds is taken over here on the way, but for a
        quick table this process may not hold: it waits for one that may, and is listed as
        held by `NOBODY`."""
        assert self.ownership is not None
        chats = await self._tables_of_player(user)
        leases = await self.db.leases_of(chats, self.clock())
        elsewhere = []
        for chat in chats:
            lease = leases.get(chat)
            if lease is None:
                if not await self._may_hold(chat):
                    elsewhere.append(Lease(chat, NOBODY, "", self.clock()))
                    continue
                async with self.tables.lock(chat):
                    await self.take(chat)
            elif lease.owner != self.ownership.owner:
                elsewhere.append(lease)
        return elsewhere

    async def _tables_of_player(self, user: str) -> list[str]:
        """The open tables where ``user`` sits, as storage has them, running hands first."""
        seated = []
        for chat, state, settings in await self.db.tables_mentioning(json.dumps(user)):
            if user in people_seated(json.loads(settings)):
                seated.append((state != PLAYING, chat))
        return [chat for _, chat in sorted(seated)]


def people_seated(settings: dict[str, Any]) -> list[str]:
    """The people seated at a stored table (its settings' seats: an AI's user is None)."""
    return [seat[0] for seat in settings.get("seats", []) if seat is not None and seat[0]]
