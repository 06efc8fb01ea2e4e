"""Keeping tables: every step stored before anything about it is sent, tables rebuilt from
storage after a restart, and a table whose step raised put back as storage last knew it.

`TableManager` is made of this and the routing and timers in `bot.manager`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.commands import Command
from bot.effects import Effects
from bot.i18n import t
from bot.logs import table_context
from bot.outgoing import Outgoing
from bot.snapshot import restore_table, table_snapshot
from bot.table import PLAYING, Table
from storage import Database
from storage.base import ActionRow, LedgerLine, StoredTable, TableRow, TimerRow, Transaction
from storage.leases import LeaseLost

if TYPE_CHECKING:
    from bot.leasing import Ownership

log = logging.getLogger(__name__)
Sender = Callable[[Outgoing], Awaitable[None]]
SAFE_AFTER = 1
"""After this many failed steps a table plays every seat by 托管 (the engine's own choice)."""
PAUSE_AFTER = 3
"""…and after this many it pauses, until the host says /resume."""
CLOSE_AFTER = 5
"""A table that keeps failing is closed, with a message, rather than left to loop."""


class TableKeeping:
    """The storing, restoring and fault containment of a `bot.manager.TableManager`."""

    db: Database
    send: Sender
    clock: Callable[[], float]
    seeds: Callable[[int], int] | None
    tables: dict[str, Table]
    crashes: dict[str, tuple[int, int]]
    """Failed steps per table: (the hand they happened in, how many); a new hand starts
    the count again."""
    _hand_ids: dict[str, int]
    _stored_actions: dict[str, int]
    ownership: Ownership | None
    """This process's name and lease time when it shares the database (`bot.leasing`)."""
    held: set[str]
    """The chats whose lease this process holds (with ``ownership``)."""

    _locks: dict[str, asyncio.Lock]

    def lock(self, chat: str) -> asyncio.Lock:
        """The lock of a chat's table: one step of it at a time."""
        return self._locks.setdefault(chat, asyncio.Lock())

    def _until(self) -> float:
        assert self.ownership is not None
        return self.clock() + self.ownership.seconds

    async def _hold(self, tx: Transaction, chats: list[str]) -> None:
        """Inside a step's transaction: the step's tables are still this process's, or the
        transaction rolls back (`LeaseLost`) and nothing of the step is stored or sent."""
        if self.ownership is not None and chats:
            await tx.hold(self.ownership.owner, chats, self.clock(), self._until())

    def _lose(self, chats: list[str]) -> None:
        """Tables that are another process's now: forgotten here, nothing more sent."""
        for chat in chats:
            self.held.discard(chat)
            if self.tables.pop(chat, None) is not None:
                log.warning("table %s went to another process; dropped here", chat)
            self._hand_ids.pop(chat, None)
            self._stored_actions.pop(chat, None)

    async def _claim_at_start(self, chat: str) -> bool:
        return True

    async def _store_each(
        self, steps: list[tuple[Table, Effects]], failed: list[str]
    ) -> list[tuple[Table, Effects]]:
        stored = []
        for table, effects in steps:
            try:
                async with self.db.transaction() as tx:
                    await self._store(tx, table, effects)
            except LeaseLost as lost:
                self._lose(lost.chats)
            except Exception:
                failed.append(table.chat)
            else:
                stored.append((table, effects))
        return stored

    # ----------------------------------------------------------------- faults

    async def _contain(self, chat: str, command: Command | None) -> list[Outgoing]:
        """A step of this table raised: log it once with the table and its trace, put the
        table back as storage last knew it, and step by step make it safer — every seat by
        托管, then paused until the host's /resume, then closed. Other tables never notice."""
        log.exception("table %s: a step failed (%s)", chat, command.name if command else "timer")
        before = self.tables.get(chat)
        number = before.hand_number if before is not None else 0
        hand, crashes = self.crashes.get(chat, (number, 0))
        crashes = crashes + 1 if hand == number else 1
        self.crashes[chat] = (number, crashes)
        out: list[Outgoing] = []
        try:
            table = await self._reload(chat)
        except Exception:
            log.exception("table %s: could not be reloaded; it is closed", chat)
            self.tables.pop(chat, None)
            return out
        if table is None:
            return out
        if command is not None:
            text = t(table.answer_lang(command), "Something went wrong; nothing was changed.")
            out.append(Outgoing("reply", chat, text, user=command.user))
        if crashes >= CLOSE_AFTER:
            out.append(table.group("This table kept failing and is closed."))
            effects = table.close()
            async with self.db.transaction() as tx:
                await self._store(tx, table, effects)
            return out + effects.out
        table.safe_mode = crashes >= SAFE_AFTER
        if crashes >= PAUSE_AFTER and table.deadline is not None:
            table.pause()
            out.append(table.group("This table hit an error and is paused; the host can /resume."))
        return out

    async def _reload(self, chat: str) -> Table | None:
        """The table of ``chat`` rebuilt from what storage holds (its last committed step)."""
        self.tables.pop(chat, None)
        for stored in await self.db.open_tables(chat):
            await self._restore_table(stored, None, announce=False)
        return self.tables.get(chat)

    # ----------------------------------------------------------------- storage

    async def _store_batch(self, steps: list[tuple[Table, Effects]]) -> None:
        """Store several tables' steps in one transaction, committed on return (the common
        case — actions and timers — in one statement each)."""
        async with self.db.transaction() as tx:
            await self._store_steps(tx, steps)

    async def _store_steps(self, tx: Transaction, steps: list[tuple[Table, Effects]]) -> None:
        await self._hold(tx, [table.chat for table, _ in steps])
        rows: list[ActionRow] = []
        snapshots: list[TableRow] = []
        timers: list[TimerRow] = []
        for table, effects in steps:
            if effects.hand_finished is not None or effects.hand_started is not None:
                await self._store(tx, table, effects)  # rare: a hand ends or starts
                continue
            rows += self._action_rows(table.chat, effects)
            if effects.table_changed:
                snapshots.append(TableRow(table.chat, table.game, table.state,
                                          table_snapshot(table)))  # fmt: skip
            elif effects.actions:  # only the turn moved on: the timer is all that changed
                timers.append(TimerRow(table.chat, table.deadline, table.turn_count,
                                       self.clock()))  # fmt: skip
        if rows:
            await tx.append_actions(rows)
        if snapshots:
            await tx.save_tables(snapshots)
        if timers:
            await tx.save_timers(timers)

    def _action_rows(self, chat: str, effects: Effects) -> list[ActionRow]:
        seq = self._stored_actions.get(chat, 0)
        self._stored_actions[chat] = seq + len(effects.actions)
        return [ActionRow(self._hand_ids[chat], seq + offset, action)
                for offset, action in enumerate(effects.actions)]  # fmt: skip

    async def _store(self, tx: Transaction, table: Table, effects: Effects) -> None:
        """Store a step: its actions belong to the hand that was current when it began, which
        may then finish; a new hand dealt in the same step comes after."""
        chat = table.chat
        await self._hold(tx, [chat])
        if effects.actions:
            await tx.append_actions(self._action_rows(chat, effects))
        if effects.hand_finished is not None:
            result, ledger = effects.hand_finished
            lines = [LedgerLine(*line) for line in ledger]
            await tx.finish_hand(self._hand_ids[chat], chat, result, lines)
        if effects.hand_started is not None:
            hand_id = await tx.start_hand(chat, table.match, table.hand_number,
                                          effects.hand_started)  # fmt: skip
            self._hand_ids[chat] = hand_id
            self._stored_actions[chat] = 0
        if effects.table_changed or effects.actions:
            await tx.save_tables([TableRow(chat, table.game, table.state, table_snapshot(table))])

    async def restore(self) -> None:
        """Rebuild every open table from storage; running hands get a 'table restored' line
        and a fresh table message, and their timers resume with the time that was left. A
        table that cannot be rebuilt is logged and left closed; the others come back."""
        alive = await self.db.meta("alive_at")
        # Sharing the database, the heartbeat is any process's: each table's own last save
        # is when its timer stopped.
        alive_at = float(alive) if alive and self.ownership is None else None
        for stored in await self.db.open_tables():
            try:
                async with self.lock(stored.chat), table_context(stored.chat):
                    if stored.chat in self.tables:
                        continue  # a command came first and took the table on already
                    if not await self._claim_at_start(stored.chat):
                        continue  # another process runs it
                    await self._restore_table(stored, alive_at, announce=True)
            except Exception:
                log.exception("table %s could not be restored", stored.chat)
                self.tables.pop(stored.chat, None)

    async def _restore_table(self, stored: StoredTable, alive_at: float | None,
                             announce: bool, line: str | None = None) -> None:  # fmt: skip
        data = stored.settings
        table = Table(stored.chat, stored.game, data["preset"], data["host"], data["lang"],
                      self.clock, self.seeds)  # fmt: skip
        restore_table(table, stored.state, data)
        hands = await self.db.hands_of(stored.chat, table.match, table.hand_number)
        if table.state == PLAYING and hands and hands[-1].result is None:
            current = hands[-1]
            game = table.front.game
            hand = game.hand_from_record(current.start)
            for raw in current.actions:
                action = game.action_from_json(raw)
                assert not isinstance(action, str), action
                hand.apply(action)
            self._hand_ids[stored.chat] = current.id
            self._stored_actions[stored.chat] = len(current.actions)
            self.tables[stored.chat] = table
            # The timer ran until the bot was last known alive (its heartbeat, or the last
            # save, on the table's own clock), then waits on with what was left.
            stopped = max(alive_at or 0.0, float(data.get("saved_at", 0.0)))
            restored = table.resume(hand, stopped if announce else self.clock(), line)
            if announce:
                for message in restored:
                    await self.send(message)
            return
        if hands and hands[-1].result is None and table.state != PLAYING:
            self._hand_ids[stored.chat] = hands[-1].id
        self.tables[stored.chat] = table
