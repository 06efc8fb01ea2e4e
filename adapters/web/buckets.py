"""A token bucket, for the web table's limits on what one page (or user) may ask."""

from __future__ import annotations

import time
from collections.abc import Callable


class Bucket:
    """A token bucket: ``burst`` at once, then ``rate`` a second."""

    def __init__(self, burst: float, rate: float, clock: Callable[[], float] = time.monotonic):
        self.burst, self.rate, self.clock = burst, rate, clock
        self.tokens, self.since = burst, clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.since) * self.rate)
        self.since = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
