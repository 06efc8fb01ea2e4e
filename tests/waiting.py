"""Waiting for what paced or background sending will do, without fixed sleeps."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any


async def eventually(
    check: Callable[[], object],
    timeout: float = 10.0,
    poll: float = 0.01,
    what: str = "the expected outcome",
) -> None:
    """Until ``check()`` is true, looking every ``poll`` seconds; fails after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} never came")
        await asyncio.sleep(poll)


async def until_closed_and_sent(manager: Any, outbox: Any, chat: str) -> None:
    """Until the table of ``chat`` is closed and everything its last step said has been sent.
    The step that closes a table (on a timer) hands its messages to the outbox before it lets
    go of the table's lock, so "nothing waits to be paced" means something only after that."""
    table = manager.tables.get(chat)  # None: closed already (a closed table is let go)
    await eventually(lambda: table is None or table.state == "closed", 60, 0.01, "the match's end")
    lock = manager.lock(chat)
    await eventually(lambda: not lock.locked(), 20, 0.002, "the last step sent")
    await eventually(outbox.paced_out, 20, 0.01, "every group call")
    await eventually(outbox.idle, 10, 0.002, "an idle outbox")
