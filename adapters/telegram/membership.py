"""Whether a Telegram user may watch a group's web table (a member of the group): asked with
``getChatMember``, remembered per chat and user for a few minutes, and asked at the send
budget's lowest priority (`adapters.send_budget.Priority.WATCHER`), so that a flood of page
opens costs a call or two and never holds up what the group itself waits for.

- Opens of one page at the same moment share one call (the first asks, the others wait for
  its answer).
- An answer is kept `KEEP_SECONDS` (a "no" or a failure less long: someone who just joined
  the group need not wait minutes); the oldest answers go once `KEEP_AT_MOST` are kept.
- ``getChatMember`` is not a message: it does not spend the group's 20 messages a minute
  (`adapters.telegram.limiter` lets it past the group's limit).
- Once closed (shutting down), nobody is let in and no call waits.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from adapters.send_budget import Priority, SendBudget

log = logging.getLogger(__name__)
KEEP_SECONDS = 300.0
"""How long a member's "yes" is trusted (seconds)."""
KEEP_NO_SECONDS = 30.0
"""How long a "no" (or a failed call) stands before the group is asked again."""
KEEP_AT_MOST = 10_000
"""Answers kept at most (the oldest go first)."""

Ask = Callable[[str, str], Awaitable[bool]]
"""(chat, user) → whether the user is in the group (raises when the call fails)."""


class Memberships:
    def __init__(
        self,
        ask: Ask,
        budget: Callable[[], SendBudget | None],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._ask = ask
        self._budget = budget
        self._clock = clock
        self._known: OrderedDict[tuple[str, str], tuple[bool, float]] = OrderedDict()
        """(chat, user) → (member?, until when it is trusted), oldest first."""
        self._asking: dict[tuple[str, str], asyncio.Future[bool]] = {}
        self._closed = False
        self.calls = 0
        """getChatMember calls made (for tests and figures)."""

    async def is_member(self, chat: str, user: str) -> bool:
        if self._closed:
            return False
        key = (chat, user)
        known = self._known.get(key)
        if known is not None and self._clock() < known[1]:
            return known[0]
        asking = self._asking.get(key)
        if asking is None:
            asking = self._asking[key] = asyncio.ensure_future(self._asked(key))
            asking.add_done_callback(lambda _: self._asking.pop(key, None))
        try:
            return await asyncio.shield(asking)
        except asyncio.CancelledError:
            if asking.cancelled():
                return False  # shut down while asking
            raise  # this page went away; the call goes on for the others

    async def _asked(self, key: tuple[str, str]) -> bool:
        budget = self._budget()
        if budget is not None:
            await budget.call(Priority.WATCHER)  # after everything a table waits for
        self.calls += 1
        try:
            member = await self._ask(*key)
        except Exception as error:  # a failed call is a "no" for a short while
            log.info("getChatMember for a watcher of %s failed: %s", key[0], error)
            member = False
        keep = KEEP_SECONDS if member else KEEP_NO_SECONDS
        self._known[key] = (member, self._clock() + keep)
        self._known.move_to_end(key)
        while len(self._known) > KEEP_AT_MOST:
            self._known.popitem(last=False)
        return member

    def close(self) -> None:
        """Shutting down: calls under way or waiting end now, and nobody is let in."""
        self._closed = True
        for asking in list(self._asking.values()):
            asking.cancel()
