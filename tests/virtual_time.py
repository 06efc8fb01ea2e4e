"""An event loop whose clock is virtual: when nothing is ready to run, time jumps to the next
timer instead of sleeping. Code built on asyncio's clock (pacing, the send budget, sleeps)
runs unchanged, as fast as the CPU allows, and the same way on every run: a test or a
benchmark can play minutes of traffic in a moment. No threads and no sockets: what waits for
them would wait forever (it raises instead)."""

from __future__ import annotations

import asyncio
import selectors
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


class _Jumping(selectors.DefaultSelector):
    def __init__(self) -> None:
        super().__init__()
        self.loop: VirtualLoop | None = None

    def select(self, timeout: float | None = None) -> list[tuple[Any, int]]:
        ready = super().select(0)
        if ready or timeout == 0:
            return ready
        if timeout is None:
            raise RuntimeError("virtual time: nothing is scheduled and nothing can wake the loop")
        assert self.loop is not None
        self.loop.now += timeout
        return []


class VirtualLoop(asyncio.SelectorEventLoop):
    def __init__(self, start: float = 0.0) -> None:
        selector = _Jumping()
        super().__init__(selector)
        selector.loop = self
        self.now = start

    def time(self) -> float:
        return self.now


def run_virtual(main: Coroutine[Any, Any, T]) -> T:
    """Run ``main`` to its end on a `VirtualLoop`, then close the loop."""
    loop = VirtualLoop()
    try:
        return loop.run_until_complete(main)
    finally:
        loop.close()
