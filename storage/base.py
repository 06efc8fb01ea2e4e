"""The storage interface both back ends implement (the rows that cross it: `storage.rows`).

A write happens inside ``async with db.transaction() as tx``: one writer at a time, committed
when the block ends, rolled back when it raises — so every write of a step is in one
transaction, committed before anything about the step is sent. Reads need no transaction.

JSON is stored as text written with ``ensure_ascii=False`` on both back ends, so a value reads
back exactly as written (key order included) whichever back end holds it. Amounts are exact
fraction strings (``"-3/2"``); sums are taken with ``Fraction`` here, not in SQL.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from abc import ABC, abstractmethod
from collections.abc import (
    AsyncGenerator,
    AsyncIterator,
    Callable,
    Iterable,
    Sequence,
)
from typing import Any

from storage.hand_lookup import HandLookups
from storage.leases import LeaseReads, LeaseWrites
from storage.quick_queue import QuickReads, QuickWrites
from storage.ratings import RatingReads, RatingWrites
from storage.rows import (
    ActionRow,
    DumpRow,
    FinishedHand,
    JsonObject,
    LedgerLine,
    StoredHand,
    StoredTable,
    TableRow,
    TimerRow,
)
from storage.signals import Signals

UPDATES_KEPT_FOR = 3600.0
"""How long an update's id is remembered (`Transaction.first_delivery`): Telegram re-sends a
webhook post for a while and a polled batch is fetched again after a crash, well within it."""


class Transaction(LeaseWrites, RatingWrites, QuickWrites, ABC):
    """The writes of one step; obtained from ``Database.transaction()`` only."""

    _finished = False

    def finish(self) -> None:
        """Called by the back end when the transaction has committed or rolled back."""
        self._finished = True

    async def tell(self, channel: str, payloads: Sequence[str]) -> None:
        """Signal the other processes sharing the database (`storage.signals`), one signal a
        payload, when this transaction commits; never if it rolls back. One process
        (SQLite): nothing to do."""

    def _ensure_open(self) -> None:
        if self._finished:
            # A write here would land outside the writer lock, in nobody's transaction.
            raise RuntimeError("this transaction has ended: write inside its `async with` block")

    @abstractmethod
    async def save_tables(self, rows: Sequence[TableRow]) -> None:
        """Insert or replace whole tables (clears their separate timer columns)."""

    @abstractmethod
    async def save_timers(self, rows: Sequence[TimerRow]) -> None:
        """Move existing tables' timers on without rewriting their settings."""

    @abstractmethod
    async def append_actions(self, rows: Sequence[ActionRow]) -> None:
        """Append accepted actions, of any number of hands, in one statement."""

    @abstractmethod
    async def start_hand(self, chat: str, match: str, number: int, start: JsonObject) -> int:
        """Record what a hand starts from; returns the hand's id for its actions."""

    @abstractmethod
    async def finish_hand(
        self, hand_id: int, chat: str, result: JsonObject, ledger: Sequence[LedgerLine]
    ) -> None:
        """Store a hand's result and its ledger lines."""

    @abstractmethod
    async def set_player(self, user: str, name: str, lang: str | None = None) -> None:
        """Insert or rename a player; a ``lang`` of None keeps the stored language."""

    @abstractmethod
    async def set_reachable(self, user: str, name: str) -> None:
        """Mark a player as one the platform lets the bot message first."""

    @abstractmethod
    async def set_meta(self, key: str, value: str) -> None: ...

    @abstractmethod
    async def first_delivery(self, platform: str, update_id: str, now: float) -> bool:
        """Note that ``platform``'s update ``update_id`` is taken at ``now``: True the first
        time within `UPDATES_KEPT_FOR` seconds (handle it), False when it was taken already,
        here or by another process sharing the database (drop it). Forgets older ones."""

    @abstractmethod
    async def subscribe(self, chat: str, user: str, title: str, now: float) -> None:
        """``user`` is told privately when a game starts in ``chat`` (named ``title``)."""

    @abstractmethod
    async def unsubscribe(self, chat: str, user: str) -> bool:
        """No more; False when ``user`` was not subscribed there."""

    @abstractmethod
    async def mark_told(self, chat: str, users: Sequence[str], now: float) -> None:
        """``users`` were told of a game starting in ``chat`` at ``now``."""

    @abstractmethod
    async def announce(self, chat: str, user: str, code: str, now: float) -> bool:
        """Note achievement ``code`` of ``user`` in ``chat`` as announced: True the first
        time, False when it was announced before (here or by another process)."""

    @abstractmethod
    async def delete_table(self, chat: str) -> None:
        """Remove a table row (its chat is gone); its hands and ledger stay as history."""

    async def move_table(self, old_chat: str, new_chat: str) -> None:
        """Give a chat's table, hands and ledger lines a new chat id (a Telegram group became a
        supergroup). The moved table replaces any table row already at ``new_chat``."""
        if old_chat == new_chat:
            return
        await self.delete_table(new_chat)
        for table in ("tables", "hands", "ledger", "subscriptions", "achievements"):
            await self._move_rows(table, old_chat, new_chat)

    @abstractmethod
    async def forget_closed_tables(self, closed_before: float, now: float) -> int:
        """Delete the tables closed (last saved) before ``closed_before``, and the leases that
        ran out by ``now`` of chats with no open table; returns how many tables went. Hands,
        their actions, the ledger and the players stay."""

    @abstractmethod
    async def _move_rows(self, table: str, old_chat: str, new_chat: str) -> None:
        """Give the rows of ``table`` at ``old_chat`` the chat ``new_chat``."""

    @abstractmethod
    async def load(self, rows: Iterable[DumpRow]) -> None:
        """Write rows as ``Database.dump()`` yields them, in that order (a hand before its
        actions and ledger lines), into a database that holds none of them yet: hands keep
        their ids, ledger lines their order, tables their separate timer columns."""


class Database(LeaseReads, RatingReads, QuickReads, HandLookups, ABC):
    """The bot's storage. ``await Database.open(address)`` (or ``storage.open_database``)
    picks the back end from the address: ``postgresql://…`` or ``postgres://…`` is
    PostgreSQL, anything else (a path, ``:memory:``) is a SQLite file."""

    backend = "sqlite"
    """The back end's name, as the figures label it."""
    signals: Signals | None = None
    """How processes sharing this database signal each other (None: only one process uses
    it, as with SQLite)."""

    def __init__(self) -> None:
        self._one_writer = asyncio.Lock()
        self._writer_task: asyncio.Task[Any] | None = None
        self.on_commit: Callable[[float], None] | None = None
        """Told each committed transaction's seconds, from its first write to its commit
        (the writer lock's wait left out): the metrics' storage commit time."""

    def time_commits(self, on_commit: Callable[[float], None]) -> None:
        """From now on, ``on_commit`` is told each transaction's time in seconds."""
        self.on_commit = on_commit

    @classmethod
    async def open(cls, address: str) -> Database:
        # Imported here because the back-end modules import this one.
        from storage.opening import open_database

        return await open_database(address)

    @abstractmethod
    async def close(self) -> None: ...

    # ----------------------------------------------------------------- writing

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        """One writer at a time: commits when the block ends, rolls back if it raises."""
        task = asyncio.current_task()
        if task is not None and task is self._writer_task:
            # The lock is not re-entrant: waiting on it here would wait forever.
            raise RuntimeError("a transaction was opened inside another one on the same task")
        async with self._one_writer:
            self._writer_task = task
            began = time.perf_counter()
            try:
                async with self._begin() as transaction:
                    yield transaction
            finally:
                self._writer_task = None
            if self.on_commit is not None:
                self.on_commit(time.perf_counter() - began)

    @abstractmethod
    def _begin(self) -> contextlib.AbstractAsyncContextManager[Transaction]:
        """The back end's transaction, entered with the writer lock held."""

    async def set_player(self, user: str, name: str, lang: str | None = None) -> None:
        async with self.transaction() as transaction:
            await transaction.set_player(user, name, lang)

    async def set_reachable(self, user: str, name: str) -> None:
        async with self.transaction() as transaction:
            await transaction.set_reachable(user, name)

    async def set_meta(self, key: str, value: str) -> None:
        async with self.transaction() as transaction:
            await transaction.set_meta(key, value)

    async def first_delivery(self, platform: str, update_id: str, now: float) -> bool:
        """`Transaction.first_delivery` in a transaction of its own."""
        async with self.transaction() as transaction:
            return await transaction.first_delivery(platform, update_id, now)

    async def forget_closed_tables(self, closed_before: float, now: float) -> int:
        """The store forgets the tables closed before ``closed_before`` (their row, and the
        leases that ran out by ``now`` of chats with no open table), in one transaction;
        returns how many tables went. What a closed table played stays: its hands, their
        actions and the ledger (`/stats`, `/top`, `/export` read them), and the players."""
        async with self.transaction() as transaction:
            return await transaction.forget_closed_tables(closed_before, now)

    # ----------------------------------------------------------------- reading

    @abstractmethod
    async def schema_version(self) -> int: ...

    @abstractmethod
    async def open_tables(self, chat: str | None = None) -> list[StoredTable]:
        """Every table not closed (or only the one of ``chat``), with a timer saved after its
        settings folded into them."""

    @abstractmethod
    async def actions_after(self, hand_id: int, seq: int) -> list[JsonObject]:
        """The actions of hand ``hand_id`` numbered ``seq`` or later, in order: a copy of a
        table another process holds, moved on (`bot.hosting.page_questions`)."""

    async def actions_after_each(
        self, wanted: Sequence[tuple[int, int]]
    ) -> dict[int, list[JsonObject]]:
        """`actions_after` of each (hand id, seq) of ``wanted``, by hand id (PostgreSQL
        reads them all in one query)."""
        return {hand: await self.actions_after(hand, seq) for hand, seq in wanted}

    async def open_tables_in(self, chats: Sequence[str]) -> list[StoredTable]:
        """The open tables of ``chats`` (PostgreSQL reads them in one query)."""
        return [table for chat in chats for table in await self.open_tables(chat)]

    @abstractmethod
    async def closed_table(self, chat: str) -> StoredTable | None:
        """The table of ``chat`` as its closing step stored it, until the retention period
        forgets it (None: the chat's table is open, or none is stored)."""

    @abstractmethod
    async def hands_of(
        self, chat: str, match: str | None = None, since_number: int = 0
    ) -> list[StoredHand]:
        """The hands of a chat numbered ``since_number`` or later (of one match, when given),
        oldest first, each with its actions in order."""

    @abstractmethod
    async def reachable_users(self, prefix: str) -> set[str]:
        """The players whose id starts with ``prefix`` who can be messaged privately."""

    @abstractmethod
    async def player_lang(self, user: str) -> str | None: ...

    @abstractmethod
    async def delivered(self, platform: str, update_id: str, now: float) -> bool:
        """Whether ``platform``'s update ``update_id`` was taken (`Transaction.first_delivery`)
        within the `UPDATES_KEPT_FOR` seconds before ``now``, here or by another process."""

    @abstractmethod
    async def player_stats(self, user: str) -> dict[str, Any]:
        """hands, wins, total (a fraction string), first_out and bonus_hands of a player."""

    @abstractmethod
    async def leaderboard(self, chat: str, limit: int = 10) -> list[tuple[str, str]]:
        """(latest name, total) of a chat's best players, best first; ties in order of first
        appearance."""

    @abstractmethod
    async def meta(self, key: str) -> str | None: ...

    @abstractmethod
    async def subscribers(self, chat: str) -> list[tuple[str, float | None]]:
        """(user, when last told or None) of everyone subscribed in ``chat``."""

    @abstractmethod
    async def subscriptions_of(self, user: str) -> list[tuple[str, str]]:
        """(chat, title) of the groups where ``user`` subscribed, oldest first."""

    @abstractmethod
    async def finished_hands(self, chat: str, after: int = 0) -> list[FinishedHand]:
        """The finished hands of ``chat`` with an id over ``after``, oldest first, each with
        its ledger lines in seat order (no actions: the result says what records need)."""

    @abstractmethod
    async def announced(self, chat: str) -> set[tuple[str, str]]:
        """(user, code) of the achievements announced in ``chat``."""

    @abstractmethod
    def dump(self) -> AsyncGenerator[DumpRow, None]:
        """Every stored row (closed tables and finished history included) in `DUMP_KINDS`
        order, from one consistent snapshot: what ``Transaction.load()`` writes back, on either
        back end. Ledger lines come in the order they were written."""

    async def is_empty(self) -> bool:
        """Whether nothing at all is stored (only the schema)."""
        async with contextlib.aclosing(self.dump()) as rows:
            async for _ in rows:
                return False
        return True


# --------------------------------------------------------------------- shared by back ends
