"""Waiting for what paced or background sending will do, without fixed sleeps."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable


async def eventually(check: Callable[[], object], timeout: float = 10.0, poll: float = 0.01,
                     what: str = "the expected outcome") -> None:  # fmt: skip
    """Until ``check()`` is true, looking every ``poll`` seconds; fails after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} never came")
        await asyncio.sleep(poll)
