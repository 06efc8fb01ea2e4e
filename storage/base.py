"""The storage interface both back ends implement, and the rows that cross it.

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
import json
import time
from abc import ABC, abstractmethod
from collections.abc import (
    AsyncGenerator,
    AsyncIterator,
    Callable,
    Iterable,
    Iterator,
    Sequence,
)
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

from storage.leases import LeaseReads, LeaseWrites
from storage.quick_queue import QuickReads, QuickWrites
from storage.ratings import RatingReads, RatingWrites

JsonObject = dict[str, Any]

DumpRow = dict[str, Any]
"""One stored row in a portable form, its ``kind`` one of `DUMP_KINDS` (JSON kept as the
stored text): what ``Database.dump()`` yields and ``Transaction.load()`` takes."""

DUMP_KINDS: dict[str, tuple[str, ...]] = {
    "meta": ("key", "value"),
    "player": ("user", "name", "lang", "reachable"),
    "table": ("chat", "game", "state", "settings", "updated", "deadline", "turn_count",
              "saved_at"),
    "hand": ("id", "chat", "match", "number", "start", "result", "started"),
    "action": ("hand", "seq", "action", "at"),
    "ledger": ("chat", "hand", "user", "name", "amount", "first_out", "bonus"),
    "subscription": ("chat", "user", "title", "since", "told_at"),
    "achievement": ("chat", "user", "code", "at"),
    "rating": ("user", "game", "name", "mu", "sigma", "hands"),
    "rating_change": ("user", "game", "hand", "name", "mu_before", "sigma_before", "mu",
                      "sigma", "at"),
}  # fmt: skip
"""The fields of each kind of dumped row, in the order ``dump()`` yields the kinds."""


UPDATES_KEPT_FOR = 3600.0
"""How long an update's id is remembered (`Transaction.first_delivery`): Telegram re-sends a
webhook post for a while and a polled batch is fetched again after a crash, well within it."""


@dataclass(frozen=True, slots=True)
class TableRow:
    """A whole table snapshot; its settings carry the timer, so saving it clears the separate
    timer columns."""

    chat: str
    game: str
    state: str
    settings: JsonObject
    updated: float | None = None
    """When it was saved, on the host's clock (None: now) — what the retention of closed
    tables counts from (`Database.forget_closed_tables`)."""


class TimerRow(NamedTuple):
    """A table's timer alone, for a step that only moved the turn on (``deadline`` None: the
    hand is waiting on nobody). (The rows written at every step are named tuples: the
    cheapest immutable values to make.)"""

    chat: str
    deadline: float | None
    turn_count: int
    saved_at: float


class ActionRow(NamedTuple):
    """One accepted action, number ``seq`` (from 0) of hand ``hand_id``."""

    hand_id: int
    seq: int
    action: JsonObject


@dataclass(frozen=True, slots=True)
class LedgerLine:
    """What one player won or lost in a hand (``amount`` and ``bonus`` are fraction strings)."""

    user: str
    name: str
    amount: str
    first_out: bool
    bonus: str


@dataclass(frozen=True, slots=True)
class StoredHand:
    id: int
    number: int
    start: JsonObject
    actions: list[JsonObject]
    result: JsonObject | None


@dataclass(frozen=True, slots=True)
class FinishedHand:
    """A finished hand as records read it: when it started, its game and result, and who
    sat where — ``lines``: (player key, name, amount) per seat, in seat order."""

    id: int
    started: float
    game: str
    result: JsonObject
    lines: list[tuple[str, str, str]]


@dataclass(frozen=True, slots=True)
class StoredTable:
    chat: str
    game: str
    state: str
    settings: JsonObject
    updated: float


class Transaction(LeaseWrites, RatingWrites, QuickWrites, ABC):
    """The writes of one step; obtained from ``Database.transaction()`` only."""

    _finished = False

    def finish(self) -> None:
        """Called by the back end when the transaction has committed or rolled back."""
        self._finished = True

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


class Database(LeaseReads, RatingReads, QuickReads, ABC):
    """The bot's storage. ``await Database.open(address)`` (or ``storage.open_database``)
    picks the back end from the address: ``postgresql://…`` or ``postgres://…`` is
    PostgreSQL, anything else (a path, ``:memory:``) is a SQLite file."""

    backend = "sqlite"
    """The back end's name, as the figures label it."""

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


def dump_row(kind: str, values: Sequence[Any]) -> DumpRow:
    return {"kind": kind, **dict(zip(DUMP_KINDS[kind], values, strict=True))}


def grouped(rows: Iterable[DumpRow]) -> Iterator[tuple[str, list[tuple[Any, ...]]]]:
    """Runs of rows of one kind, in order, as value tuples in `DUMP_KINDS` field order (what a
    back end's ``load`` writes with one statement per run); a bad row raises ValueError."""
    kind: str | None = None
    run: list[tuple[Any, ...]] = []
    for row in rows:
        fields = DUMP_KINDS.get(row.get("kind", ""))
        if fields is None:
            raise ValueError(f"unknown kind of row: {row.get('kind')!r}")
        missing = [name for name in fields if name not in row]
        if missing:
            raise ValueError(f"a {row['kind']} row lacks {', '.join(missing)}")
        if row["kind"] != kind:
            if kind is not None and run:
                yield kind, run
            kind, run = row["kind"], []
        run.append(tuple(row[name] for name in fields))
    if kind is not None and run:
        yield kind, run


_ENCODER = json.JSONEncoder(ensure_ascii=False, check_circular=False)
"""Made once: `json.dumps` with any option builds a new encoder at every call, and every
action is stored through here. A stored value is plain data, never circular."""


def to_json(value: JsonObject) -> str:
    return _ENCODER.encode(value)


def from_json(text: str) -> JsonObject:
    value: JsonObject = json.loads(text)
    return value


def table_values(rows: Iterable[TableRow], now: float) -> list[tuple[str, str, str, str, float]]:
    """(chat, game, state, settings JSON, updated) of tables to save, ``now`` where a row
    does not say when."""
    return [
        (row.chat, row.game, row.state, to_json(row.settings),
         now if row.updated is None else row.updated)
        for row in rows
    ]  # fmt: skip


def table_from_columns(
    chat: str,
    game: str,
    state: str,
    settings: str,
    updated: float,
    deadline: float | None,
    turn_count: int | None,
    saved_at: float | None,
) -> StoredTable:
    data = from_json(settings)
    if saved_at is not None:  # the timer moved on after the settings were saved
        data.update(deadline=deadline, turn_count=turn_count, saved_at=saved_at)
    return StoredTable(chat, game, state, data, updated)


def assemble_hands(
    hands: Iterable[tuple[int, int, str, str | None]], actions: Iterable[tuple[int, str]]
) -> list[StoredHand]:
    """Hands from their rows (id, number, start, result) and the actions of all of them
    (hand id, action) in order; actions of a hand not among the rows are left out."""
    actions_of: dict[int, list[JsonObject]] = {}
    ordered = []
    for hand_id, number, start, result in hands:
        actions_of[hand_id] = []
        ordered.append((hand_id, number, start, result))
    for hand_id, action in actions:
        if hand_id in actions_of:
            actions_of[hand_id].append(from_json(action))
    return [
        StoredHand(
            hand_id,
            number,
            from_json(start),
            actions_of[hand_id],
            from_json(result) if result is not None else None,
        )
        for hand_id, number, start, result in ordered
    ]


def stats_of(lines: Sequence[tuple[str, bool, str]]) -> dict[str, Any]:
    """A player's figures from their ledger lines (amount, first out, bonus)."""
    amounts = [Fraction(amount) for amount, _, _ in lines]
    return {
        "hands": len(lines),
        "wins": sum(1 for amount in amounts if amount > 0),
        "total": str(sum(amounts, Fraction(0))),
        "first_out": sum(1 for _, first_out, _ in lines if first_out),
        "bonus_hands": sum(1 for _, _, bonus in lines if Fraction(bonus) > 0),
    }


def ranking(lines: Iterable[tuple[str, str, str]], limit: int) -> list[tuple[str, str]]:
    """The leaderboard from ledger lines (user, name, amount) in the order they were written."""
    totals: dict[str, Fraction] = {}
    names: dict[str, str] = {}
    for user, name, amount in lines:
        totals[user] = totals.get(user, Fraction(0)) + Fraction(amount)
        names[user] = name
    ranked = sorted(totals.items(), key=lambda item: item[1], reverse=True)[:limit]
    return [(names[user], str(total)) for user, total in ranked]


def assemble_finished(
    hands: Iterable[tuple[int, float, str, str]], lines: Iterable[tuple[int, str, str, str]]
) -> list[FinishedHand]:
    """Finished hands from their rows (id, started, start, result) and the ledger lines of all
    of them (hand id, user, name, amount) in the order they were written."""
    lines_of: dict[int, list[tuple[str, str, str]]] = {}
    for hand_id, user, name, amount in lines:
        lines_of.setdefault(hand_id, []).append((user, name, amount))
    return [
        FinishedHand(hand_id, float(started), str(from_json(start).get("game", "")),
                     from_json(result), lines_of.get(hand_id, []))
        for hand_id, started, start, result in hands
    ]  # fmt: skip
