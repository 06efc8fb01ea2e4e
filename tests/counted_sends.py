"""An outbox that makes no call but counts and times each one it would make, through the real
delivery: the per-group pacers (`adapters.pacing`), the conversations that keep the latest
view (`adapters.delivery`) and the bot-wide send budget (`adapters.send_budget`), in the
order Telegram's request object applies them (the bot-wide budget, then the group's).
Run it on a `tests.virtual_time.VirtualLoop`: minutes of traffic in a moment, the same on
every run."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from adapters.delivery import Delivery
from adapters.send_budget import CALLING, Priority, SendBudget
from bot.views.outgoing import Kind, Outgoing


@dataclass(frozen=True)
class Call:
    at: float
    key: str
    """The conversation: a group's chat, or a user's."""
    group: bool
    priority: Priority
    message: Outgoing


class CountedOutbox(Delivery):
    counts_calls_when_made = True

    def __init__(self, rate: float, latency: float = 0.0) -> None:
        super().__init__()
        self.send_budget = SendBudget(rate)
        self.latency = latency
        """Seconds a call takes once made (the network)."""
        self.calls: list[Call] = []
        self._ids = 0

    async def __call__(self, message: Outgoing) -> None:
        if message.kind in (Kind.GROUP, Kind.TABLE):
            self.pace(message)
        else:
            assert message.user is not None
            self.enqueue(message.user, message.user, message)

    def group_target(self, chat: str) -> Any:
        return chat

    async def deliver(self, key: str, target: Any, message: Outgoing) -> None:
        await self._call(key, message)
        self._ids += 1
        self.remember_message(key, message, self._ids)

    async def retire(self, key: str, target: Any, message_id: Any, keep: str) -> None:
        await self._call(key, Outgoing(Kind.DELETE, key, str(message_id)))

    async def _call(self, key: str, message: Outgoing) -> None:
        priority = CALLING.get()
        assert self.send_budget is not None
        await self.send_budget.call(priority)
        chat = key.split("#")[0]  # a group's deletions have a conversation of their own
        group = chat in self._pacers
        if group:
            await self.before_group_call(chat)
        self.calls.append(Call(asyncio.get_running_loop().time(), chat, group, priority, message))
        if self.latency:
            await asyncio.sleep(self.latency)
