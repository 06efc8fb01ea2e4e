"""A conversation's queue of messages (`adapters.delivery`): one sender task a chat, and
which waiting view of a message a newer one overtakes."""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass, field, replace
from typing import Any

from bot.views.outgoing import Outgoing


@dataclass
class Conversation:
    """One chat the bot writes to: its queue of (where to, message) — the platform's handle
    may change, e.g. from a DM to an ephemeral view — and its sender task."""

    queue: deque[tuple[Any, Outgoing]] = field(default_factory=deque)
    task: asyncio.Task[None] | None = None


def newer_view(conversation: Conversation, target: Any, message: Outgoing) -> int | None:
    """Where a newer view of the same message waits in the queue (None: none does). A
    table message that was to move down hands its header on to the newer view; a hand
    asked to come anew at the end of the chat (`Outgoing.asked`) hands that on."""
    if message.slot is None:
        return None
    for index, (where, later) in enumerate(conversation.queue):
        if later.slot == message.slot and later.chat == message.chat and where == target:
            if message.asked and not later.asked:
                later = replace(later, asked=True)
            if message.header is not None:
                header = "\n".join(h for h in (message.header, later.header) if h)
                later = later.moved_below(header, later.mention or message.mention)
            conversation.queue[index] = (where, later)
            return index
    return None
