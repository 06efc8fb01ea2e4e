"""Issue 51, item 7: what the delivery keeps per chat is dropped with the table, on a virtual
clock (`tests.virtual_time`) through the real pacers, budgets and conversations: 5,000 chats
that each post and close leave nothing behind once a budget window has passed, the memory
held (tracemalloc) stays within 10% of what was held after the first 500, and a group's
timer that outlives its state never fails."""

from __future__ import annotations

import asyncio
import gc
import tracemalloc

from adapters.pacing import WINDOW
from bot.views.outgoing import Button, Kind, Outgoing
from tests.counted_sends import CountedOutbox
from tests.virtual_time import run_virtual

READY = Button("Ready", "/ready", "t1")
WARM_UP = 500
"""Chats before the first measure: more than are ever open at once below (a chat's state
lives a budget window, 60 s, and a chat opens every 0.2 s), so that what grows with the
busiest moment (the event loop's set of tasks) has grown."""
EMPTY = {"pacers": 0, "budgets": 0, "conversations": 0, "slots": 0, "headers": 0,
         "pictures": 0, "used": 0, "deletes": 0}  # fmt: skip


async def open_and_close(outbox: CountedOutbox, first: int, count: int) -> None:
    for number in range(first, first + count):
        chat = f"group-{number}"
        await outbox(Outgoing(Kind.GROUP, chat, "Ann opened a table.", buttons=((READY,),)))
        await outbox(Outgoing(Kind.TABLE, chat, "the table", slot=f"table {chat} 1"))
        outbox.pace_delete(chat, 7)
        await outbox(Outgoing(Kind.GROUP, chat, "The table is closed."))
        await asyncio.sleep(0.2)  # 15 calls a second: within the bot-wide budget (30)


def held(outbox: CountedOutbox) -> int:
    """Bytes allocated since tracing began and still held, the test's own records aside:
    its list of calls and the outbox's bounded record of the latest group calls."""
    outbox.calls.clear()
    outbox.group_calls_made.clear()
    gc.collect()
    return tracemalloc.get_traced_memory()[0]


async def drained(outbox: CountedOutbox) -> None:
    while not (outbox.paced_out() and outbox.idle()):
        await asyncio.sleep(1.0)
    await asyncio.sleep(2 * WINDOW)  # a budget window for the forgetting to come round


def test_five_thousand_chats_opened_and_closed_leave_nothing_behind():
    failures: list[object] = []

    async def main() -> None:
        asyncio.get_running_loop().set_exception_handler(
            lambda _, context: failures.append(context.get("exception") or context.get("message"))
        )
        tracemalloc.start()
        outbox = CountedOutbox(rate=30.0)
        outbox.has_table = lambda chat: False  # every table closed once it said its lines
        await open_and_close(outbox, 0, WARM_UP)
        await drained(outbox)
        assert outbox.kept_chats() == EMPTY
        start = held(outbox)
        await open_and_close(outbox, WARM_UP, 5000)
        await drained(outbox)
        end = held(outbox)
        tracemalloc.stop()
        assert outbox.kept_chats() == EMPTY
        assert end < 1.1 * start, (start, end)

    run_virtual(main())
    assert failures == []
