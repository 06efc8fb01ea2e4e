"""Waiting for what paced or background sending will do, without fixed sleeps."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable


async def eventually(check: Callable[[], object], timeout: float = 10.0) -> None:
    """Until ``check()`` is true; fails after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("the expected outcome never came")
        await asyncio.sleep(0.01)
