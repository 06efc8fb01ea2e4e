"""What the web table answers a page or a request that asks wrongly, and how much it lets
a page ask: the one answer for a table it may not open (``gone``, 404 — none there, or not
for this user: the same body), the one for a bad credential (401), a page's words read
safely, and the token buckets that limit a page's messages (`adapters.web.server`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from aiohttp import web

ARGS_AT_MOST = 64
GONE_BODY = '{"error": "no table"}'
"""The one answer for a good credential that opens no table: none there, or not for you."""


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


def gone() -> web.HTTPNotFound:
    return web.HTTPNotFound(text=GONE_BODY, content_type="application/json")


def unauthorized() -> web.HTTPUnauthorized:
    return web.HTTPUnauthorized(text='{"error": "unauthorized"}', content_type="application/json",
                                headers={"WWW-Authenticate": "Link, tma"})  # fmt: skip


def short_words(value: Any) -> list[str] | None:
    """A page's list of short words (cards, a bid); None for anything else."""
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > ARGS_AT_MOST:
        return None
    if not all(isinstance(v, str) and 0 < len(v) <= 12 for v in value):
        return None
    return list(value)
