"""One send budget for the whole bot: a platform accepts only so many calls a second from
one bot across all its chats (Telegram about 30, edits included; Discord 50), and when the
tables ask for more, this decides which call waits.

Calls are granted in order of `Priority`, first come first served within one: a person's
private messages (the turn notice, the reminder, their own hand with its buttons) and every
answer to a person's own command (a refusal) first; then what shows the tables (a group's
table message and posts); then everything else (deleting typed commands, files); last, the
membership checks of web watchers. A private
chat is one conversation in order, so a turn notice queued behind its player's hand waits
as long as the hand does: the hand goes first with it. The budget is a bucket of ``rate``
calls a second holding at most one second's worth, so a quiet bot sends at once and a busy
one never more than ``rate`` a second.

The group's own budget (20 calls a minute, `adapters.pacing`) still holds: a group call
first waits here, then for its group. While calls wait, the newer view of a table replaces
the older one waiting in its conversation (`adapters.delivery`): a group gets its latest
table, not every step, however long the wait.
"""

from __future__ import annotations

import asyncio
import contextvars
import heapq
import itertools
from collections import Counter
from collections.abc import Callable
from enum import IntEnum

from bot.ops import metrics
from bot.views.outgoing import Kind, Outgoing

TELEGRAM_RATE = 30.0
"""Telegram's calls a second from one bot, across all chats."""
DISCORD_RATE = 50.0
"""Discord's global limit of requests a second for one bot."""
WHOLE = 1 - 1e-9
"""A call's token, rounding aside: time summed in floating point may leave 0.999…"""
LEAST_WAIT = 0.001
"""Seconds at least between two pumps: a clock that cannot tell smaller steps apart would
otherwise be asked again and again for the same moment."""


class Priority(IntEnum):
    PERSON = 0
    """A person's private turn notice, reminder, hand or refusal: they are waiting to act."""
    TABLE = 1
    """A table's state in its group: the table message and posts."""
    OTHER = 2
    """Everything else: deleting typed commands, hand records as files."""
    WATCHER = 3
    """Whether a web page's watcher is in the group (`adapters.telegram.membership`): asked
    only when nothing a table or a person waits for is waiting."""


def priority_of(message: Outgoing) -> Priority:
    if message.filename is not None:
        return Priority.OTHER  # a file (a hand record) is read later, not acted on
    if message.kind in (Kind.REPLY, Kind.PRIVATE):
        return Priority.PERSON
    if message.kind in (Kind.TABLE, Kind.GROUP):
        return Priority.TABLE
    return Priority.OTHER


CALLING: contextvars.ContextVar[Priority] = contextvars.ContextVar(
    "calling", default=Priority.OTHER
)
"""The priority of the message being delivered: set by the outbox's sender, read where its
calls are made (`adapters.telegram.request`)."""


class SendBudget:
    """``rate`` calls a second at most, bot-wide, granted by priority. ``clock`` (seconds) and
    ``speed`` (clock seconds per event-loop second) may be injected: a test calls `pump`
    itself after moving its clock (``timers=False``). With a ``platform``, each call's wait
    is the ``bot`` budget's in the figures (`bot.ops.metrics.waited`)."""

    def __init__(
        self,
        rate: float = TELEGRAM_RATE,
        clock: Callable[[], float] | None = None,
        speed: float = 1.0,
        timers: bool = True,
        platform: str | None = None,
    ) -> None:
        self.rate = rate
        self.platform = platform
        self.burst = max(1.0, rate)
        self._clock = clock
        self.speed = speed
        self.timers = timers
        self.tokens = self.burst
        self._at: float | None = None
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._timer: asyncio.TimerHandle | None = None
        self.granted: Counter[Priority] = Counter()
        """Calls granted, by priority (for the metrics and the capacity bench)."""

    def clock(self) -> float:
        if self._clock is not None:
            return self._clock()
        return asyncio.get_running_loop().time() * self.speed

    def _refill(self, now: float) -> None:
        if self._at is not None:
            self.tokens = min(self.burst, self.tokens + (now - self._at) * self.rate)
        self._at = now

    @property
    def waiting(self) -> int:
        return sum(1 for *_, future in self._waiting if not future.done())

    async def call(self, priority: Priority = Priority.OTHER) -> None:
        """Until a call of ``priority`` may be made (at once when nothing waits)."""
        asked = self.clock()
        self._refill(asked)
        if not self._waiting and self.tokens >= WHOLE:
            self.tokens -= 1
            self.granted[priority] += 1
            self._waited(0.0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (priority, next(self._order), future))
        self._wake()
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self.tokens += 1  # granted, but the call will not be made: give it back
            raise
        self.granted[priority] += 1
        self._waited((self.clock() - asked) / self.speed)

    def _waited(self, seconds: float) -> None:
        if self.platform is not None:
            metrics.waited(self.platform, "bot", seconds)

    def pump(self) -> int:
        """Grant the waiting calls the budget has room for now, most urgent first; returns
        how many were granted."""
        self._timer = None
        self._refill(self.clock())
        granted = 0
        while self._waiting and self.tokens >= WHOLE:
            _, _, future = heapq.heappop(self._waiting)
            if future.done():
                continue  # its caller gave up waiting
            future.set_result(None)
            self.tokens -= 1
            granted += 1
        self._wake()
        return granted

    def _wake(self) -> None:
        """Pump again when the next call's token has come."""
        if not self.timers or self._timer is not None or not self._waiting:
            return
        delay = max(LEAST_WAIT, (1 - self.tokens) / self.rate) / self.speed
        self._timer = asyncio.get_running_loop().call_later(delay, self.pump)
