"""The tables this process runs, one per chat, and the lock of each chat: one step of a
table at a time. Shared by the manager and its collaborators (keeping, leases, timers).

Only open tables are kept: a table leaves as soon as its closing step is stored
(`bot.hosting.keeping`), and a chat's lock leaves with the last task that held or awaited it once
the chat has no table — memory does not grow with every chat ever seen."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from types import TracebackType

from bot.table.state import Table


class ChatLock:
    """One chat's `asyncio.Lock`, counting the tasks that hold it or wait for it: a lock is
    forgotten only when none does, so two tasks can never hold two locks of one chat."""

    def __init__(self, chat: str, unused: Callable[[str, ChatLock], None]) -> None:
        self.chat = chat
        self.users = 0
        """The tasks holding the lock or waiting for it."""
        self._lock = asyncio.Lock()
        self._unused = unused

    def locked(self) -> bool:
        return self._lock.locked()

    async def acquire(self) -> bool:
        self.users += 1
        try:
            return await self._lock.acquire()
        except BaseException:  # cancelled while waiting
            self._left()
            raise

    def release(self) -> None:
        self._lock.release()
        self._left()

    def _left(self) -> None:
        self.users -= 1
        if self.users == 0:
            self._unused(self.chat, self)

    async def __aenter__(self) -> None:
        await self.acquire()

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.release()


class OpenTables:
    def __init__(self) -> None:
        self.by_chat: dict[str, Table] = {}
        self._locks: dict[str, ChatLock] = {}

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
        """Forget the table of ``chat``; its lock goes too once nobody holds or awaits it."""
        table = self.by_chat.pop(chat, None)
        lock = self._locks.get(chat)
        if lock is not None and lock.users == 0:
            del self._locks[chat]
        return table

    def seating(self, user: str) -> list[Table]:
        """The open tables where ``user`` sits, by chat (the order the bot lists them in)."""
        seated = [
            table
            for table in self.by_chat.values()
            if table.is_open() and table.seat_of(user) is not None
        ]
        return sorted(seated, key=lambda table: table.chat)

    def lock(self, chat: str) -> ChatLock:
        """The lock of a chat's table: one step of it at a time."""
        lock = self._locks.get(chat)
        if lock is None:
            lock = self._locks[chat] = ChatLock(chat, self._unused)
        return lock

    def is_locked(self, chat: str) -> bool:
        """Whether a step of ``chat`` holds its lock (asking makes no lock)."""
        lock = self._locks.get(chat)
        return lock is not None and lock.locked()

    def locks(self) -> dict[str, ChatLock]:
        return self._locks

    def _unused(self, chat: str, lock: ChatLock) -> None:
        """Nobody holds or awaits ``lock`` any more: a chat with no table forgets it."""
        if chat not in self.by_chat and self._locks.get(chat) is lock:
            del self._locks[chat]

    def drop_idle_locks(self) -> None:
        """Forget the locks of chats with no table that nobody holds or awaits (one asked
        for and never taken)."""
        self._locks = {
            chat: lock
            for chat, lock in self._locks.items()
            if chat in self.by_chat or lock.users > 0
        }
