"""``POST /replay/api`` off the event loop: a hand record stepped through is CPU work (an
82 KB record took 0.31 s and answered 2.8 MB), so it runs in a worker process of its own
(`bot.ai_seats.worker_pool.parent_bound_pool`: it ends with the bot), which parses the body (with
the JSON depth limit), replays it and returns the answer already encoded; the loop only hands bytes
on. A client gets one replay at a time (by its address) and a few a minute, and the server runs
`AT_ONCE` at a time with a short queue: past those, 429 or 503, at once."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from concurrent.futures import Executor

from adapters.serving import BadJson, parse_json
from bot.ai_seats.worker_pool import parent_bound_pool
from bot.page.replay import BadRecord, replay_frames

RECORD_BYTES = 256 * 1024
"""A record's body at most (a whole match's hand is well under 100 KB): 413 beyond."""
ANSWER_BYTES = 8 * 1024 * 1024
"""An answer at most: a record that would draw more is refused (400)."""
AT_ONCE = 1
"""Replays worked on at once: one worker process."""
QUEUED = 4
"""Replays that may wait for the worker: past those, 503 at once."""
BURST, PER_MINUTE = 4.0, 12.0
"""Replays one client may ask: a burst, then this many a minute."""


def replay_answer(body: bytes, lang: str) -> tuple[int, bytes]:
    """The status and JSON body answering a replay of ``body`` (run in the worker)."""
    try:
        record = parse_json(body, max_bytes=RECORD_BYTES)
        answer = json.dumps(
            replay_frames(record, lang), ensure_ascii=False, separators=(",", ":")
        ).encode()
    except BadJson:
        return 400, _error("not JSON")
    except BadRecord as bad:
        return 400, _error(str(bad))
    if len(answer) > ANSWER_BYTES:
        return 400, _error("the record is too long to replay")
    return 200, answer


def _error(text: str) -> bytes:
    return json.dumps({"error": text}, ensure_ascii=False).encode()


class Busy(Exception):
    """No replay now: ``status`` is 429 (this client asks too often) or 503 (the server's
    replays are all taken)."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class Replays:
    """The replay worker, and who may use it when."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._executor: Executor | None = None
        self._room = asyncio.Semaphore(AT_ONCE + QUEUED)
        self._working: set[str] = set()
        self._buckets: dict[str, tuple[float, float]] = {}
        self.answered = 0
        """Replays answered (for tests and the bench)."""

    def executor(self) -> Executor:
        if self._executor is None:
            self._executor = parent_bound_pool(AT_ONCE, __name__)
        return self._executor

    def _take(self, client: str) -> None:
        if client in self._working:
            raise Busy(429)
        now = self.clock()
        tokens, since = self._buckets.get(client, (BURST, now))
        tokens = min(BURST, tokens + (now - since) * PER_MINUTE / 60.0)
        if tokens < 1:
            self._buckets[client] = (tokens, now)
            raise Busy(429)
        if self._room.locked():
            raise Busy(503)
        self._buckets[client] = (tokens - 1, now)
        if len(self._buckets) > 10_000:  # a bucket full again is as good as none
            self._buckets = {k: v for k, v in self._buckets.items() if v[0] < BURST - 1}

    async def answer(self, client: str, body: bytes, lang: str) -> tuple[int, bytes]:
        """The replay of ``body`` for ``client`` (its address); `Busy` when it may not have
        one now."""
        self._take(client)
        self._working.add(client)
        try:
            async with self._room:
                loop = asyncio.get_running_loop()
                answer = await loop.run_in_executor(self.executor(), replay_answer, body, lang)
        finally:
            self._working.discard(client)
        self.answered += 1
        return answer

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
