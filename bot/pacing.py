"""Pacing group calls: at most one call per slot, coalesced table-message edits.

Telegram allows about 20 messages and edits a minute in one group. A `GroupPacer` releases
at most one group call per ``slot`` seconds (3 s: 20 a minute), and never more than
``budget`` in any 60-second window. Table-message edits are coalesced — only the latest
state is sent, so several plays in quick succession become one edit. A post (a new message)
released while a table state is waiting carries that state along, so a play shows in the
group within one slot even when posts take the turn; the table message is then edited in a
following slot. Posts are never dropped and keep their order.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import replace

from bot.outgoing import Outgoing

WINDOW = 60.0
BUDGET = 20
SLOT = 3.0
QUIET = 12.0
"""A table state that is not urgent (plays between AI seats in the middle of a trick) waits
up to this long after the last call, folded into whatever comes next: about one group call
per trick or round instead of one per play."""


class GroupPacer:
    def __init__(self, clock: Callable[[], float], budget: int = BUDGET,
                 slot: float = SLOT) -> None:  # fmt: skip
        self.clock = clock
        self.budget = budget
        self.slot = slot
        self.calls: deque[float] = deque()
        self.posts: deque[Outgoing] = deque()
        self.table: Outgoing | None = None
        self.table_urgent = False
        """Whether any table state waiting since the last call was urgent."""
        self.table_shown = True
        """Whether the waiting table state has already been shown (inside a post)."""
        self.next_slot = -1e18

    def submit(self, message: Outgoing) -> None:
        if message.kind == "table":
            self.table = message  # the latest state wins
            self.table_urgent = self.table_urgent or message.urgent
            self.table_shown = False
        else:
            self.posts.append(message)

    def _room(self, now: float) -> int:
        # Compared as `now >= call + WINDOW`, the very sum `next_time` hands out, so a
        # timer set for that moment always finds the room (no rounding gap).
        while self.calls and now >= self.calls[0] + WINDOW:
            self.calls.popleft()
        return self.budget - len(self.calls)

    def due(self) -> list[Outgoing]:
        """The call that may be made now, if any; the rest waits for `next_time`."""
        now = self.clock()
        if now < self.next_slot or self._room(now) <= 0 or (not self.posts and self.table is None):
            return []
        if not self.posts and not self.table_urgent and now < self._quiet_until():
            return []
        if self.posts:
            post = self.posts.popleft()
            if self.table is not None and not self.table_shown:
                post = replace(post, text=post.text + "\n\n" + self.table.resolved().text)
                self.table_shown = True
                self.table_urgent = False
            message = post
        else:
            assert self.table is not None
            message, self.table = self.table, None
            self.table_urgent = False
        self.calls.append(now)
        self.next_slot = now + self.slot
        return [message]

    def next_time(self) -> float | None:
        """When the next call may be made (None: nothing waits)."""
        if not self.posts and self.table is None:
            return None
        now = self.clock()
        ready = max(now, self.next_slot)
        if not self.posts and not self.table_urgent:
            ready = max(ready, self._quiet_until())
        if self._room(now) <= 0:
            ready = max(ready, self.calls[0] + WINDOW)
        return ready

    def _quiet_until(self) -> float:
        return self.calls[-1] + QUIET if self.calls else -1e18
