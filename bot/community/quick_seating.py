"""One matching step of a quick queue, on storage: claim who waits, match them
(`bot.community.quick_matching`), seat each table found — in one transaction, so that a process that
dies mid-step seats nobody, and several processes matching at once never seat one person
twice nor open one table twice (`storage.quick_queue`)."""

from __future__ import annotations

import uuid
from collections.abc import Callable

from bot.community.quick_matching import Match, Waiting, match
from storage import Database
from storage.quick_queue import QueueEntry

QUICK_CHAT = "q:"
"""How a quick table's chat begins: no platform's chat does (`bot.hosting.quick_room`)."""
QUICK_NARRATION = "quick "
"""How the slot of a quick table's narration begins: ``quick <chat> <trick>``, one private
message per trick for each player, edited as the trick goes on (`bot.hosting.quick_room`)."""
RECENT_TABLES = 3600.0
"""How far back a person's last quick table is looked for (the same four not twice)."""


async def seat_waiting(
    db: Database,
    game: str,
    preset: str,
    now: float,
    quick_wait: float,
    new_chat: Callable[[], str],
    platforms: frozenset[str] | None = None,
) -> list[tuple[str, tuple[QueueEntry, ...], int]]:
    """Open the tables the queue of ``game`` and ``preset`` has now: (chat, the people in
    their seats' order, AI seats) of each, chats from ``new_chat``; only people of
    ``platforms`` (None: all) are matched here (`bot.hosting.quick_reach`)."""
    last: dict[str, frozenset[str]] = {}
    for _, users in await db.quick_tables(now - RECENT_TABLES):
        for user in users:
            last[user] = frozenset(users)  # later tables replace earlier ones
    opened = []
    async with db.transaction() as tx:
        claimed = await tx.claim_waiting(game, preset, platforms)
        by_user = {entry.user: entry for entry in claimed}
        apart: dict[str, set[str]] = {}
        for user, blocked in await db.blocks_among(list(by_user)):
            apart.setdefault(user, set()).add(blocked)
            apart.setdefault(blocked, set()).add(user)
        waiting = [
            Waiting(e.user, e.mu, e.since, e.accepts_ai, frozenset(apart.get(e.user, ())))
            for e in claimed
        ]
        found: list[Match] = match(waiting, now, quick_wait, last)
        for table in found:
            chat = new_chat()
            people = tuple(by_user[person.user] for person in table.people)
            await tx.seat(chat, people, now)
            opened.append((chat, people, table.ai_seats))
    return opened


def new_quick_chat() -> str:
    """A new quick table's chat, unique across processes, short enough for a Telegram
    button's 64 bytes of data with its stamp and command."""
    return QUICK_CHAT + uuid.uuid4().hex[:10]


def is_quick(chat: str) -> bool:
    return chat.startswith(QUICK_CHAT)
