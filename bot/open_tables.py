"""The tables this process runs, one per chat, and the lock of each chat: one step of a
table at a time. Shared by the manager and its collaborators (keeping, leases, timers)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

from bot.table import Table


class OpenTables:
    def __init__(self) -> None:
        self.by_chat: dict[str, Table] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    def get(self, chat: str) -> Table | None:
        return self.by_chat.get(chat)

    def __contains__(self, chat: object) -> bool:
        return chat in self.by_chat

    def __iter__(self) -> Iterator[str]:
        return iter(self.by_chat)

    def __len__(self) -> int:
        return len(self.by_chat)

    def tables(self) -> list[Table]:
        return list(self.by_chat.values())

    def put(self, table: Table) -> None:
        self.by_chat[table.chat] = table

    def pop(self, chat: str) -> Table | None:
        return self.by_chat.pop(chat, None)

    def seating(self, user: str) -> list[Table]:
        """The open tables where ``user`` sits, by chat (the order the bot lists them in)."""
        seated = [table for table in self.by_chat.values()
                  if table.is_open() and table.seat_of(user) is not None]  # fmt: skip
        return sorted(seated, key=lambda table: table.chat)

    def lock(self, chat: str) -> asyncio.Lock:
        """The lock of a chat's table: one step of it at a time."""
        return self._locks.setdefault(chat, asyncio.Lock())

    def locks(self) -> dict[str, asyncio.Lock]:
        return self._locks

    def drop_idle_locks(self) -> None:
        """Forget the locks of chats with no table (and nobody waiting on them)."""
        self._locks = {chat: lock for chat, lock in self._locks.items()
                       if chat in self.by_chat or lock.locked()}  # fmt: skip
