"""Updates processed concurrently, each chat's in order.

python-telegram-bot processes updates one at a time unless told otherwise, so one busy group
(a flood of commands, a table whose lock is held) would hold up every private ``/start``.
`ChatOrderedUpdates` lets updates of different chats run side by side while those of one
chat keep the order they came in (one lock per chat, taken in arrival order).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor

MAX_CONCURRENT = 1024
"""Updates in progress at once (most of them waiting for their chat's turn)."""


class ChatOrderedUpdates(BaseUpdateProcessor):
    def __init__(self, max_concurrent_updates: int = MAX_CONCURRENT) -> None:
        super().__init__(max_concurrent_updates)
        self._locks: dict[int, asyncio.Lock] = {}
        self._waiting: dict[int, int] = {}

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        chat = update.effective_chat if isinstance(update, Update) else None
        if chat is None:
            await coroutine
            return
        key = chat.id
        lock = self._locks.setdefault(key, asyncio.Lock())
        self._waiting[key] = self._waiting.get(key, 0) + 1
        try:
            async with lock:
                await coroutine
        finally:
            self._waiting[key] -= 1
            if not self._waiting[key]:  # nobody else of this chat waits: forget its lock
                del self._waiting[key], self._locks[key]

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass
