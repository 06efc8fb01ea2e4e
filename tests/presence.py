"""Letting a table's own time pass in the platform tests (issue 49): the tables' clock is a
`FakeClock` the test jumps to the table's next wake (a turn's time-out, an AI pause, the
ready time, a pause's end), one step at a time, each step's messages handed to the platform
before the next."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from tests.bot.harness import FakeClock
from tests.live_table import AUCTION_OVER, BIDS_OPEN, TITLE, TURN_LINE, GroupCall, GroupView
from tests.waiting import eventually

PAUSED = ("暂停", "paused")
"""Words of the pause post (简体, English): said once when nobody is there."""


def moment(table: Any) -> tuple[Any, ...]:
    """What changes when a table takes a step by itself."""
    hand = table.hand
    return (table.state, table.hand_number, table.turn_count, paused(table),
            table.reminder_at, hand is not None and len(hand.history))  # fmt: skip


def paused(table: Any) -> bool:
    """Whether the table paused for want of people (read so that the test runs, and fails
    on what it checks, on code from before pausing)."""
    return bool(getattr(table, "on_hold", False))


async def let_time_pass(
    world: Any, table: Any, clock: FakeClock, until: Callable[[], bool], steps: int = 3000
) -> None:
    """Jump the clock to each next wake of ``table`` until ``until()`` (or the table closes:
    nothing wakes it then). ``world``: a Telegram or Discord test world."""
    for _ in range(steps):
        if until() or table.state == "closed":
            # The step that got here changed the table before storing it, and sends once it
            # is stored, under the chat's lock: what it says is handed over when the lock is
            # free again (AI players acting at once chain steps without a wake between).
            lock = world.manager.lock(table.chat)
            await eventually(lambda held=lock: not held.locked(), 5.0, 0.002, "the step sent")
            await world.settle()
            return
        wake = table.next_wake()
        assert wake is not None, "the table waits for nothing and nobody"
        before = moment(table)
        clock.now = max(clock.now, wake)
        await eventually(lambda b=before: moment(table) != b, 5.0, 0.002, "a step of the table")
        lock = world.manager.lock(table.chat)
        await eventually(lambda held=lock: not held.locked(), 5.0, 0.002, "the step sent")
        await world.settle()
        # A paced table state is written when it is sent, with the time left then: the
        # clock jumps only once every paced call has gone out, or a state held for its
        # slot would show the next wake's time (a turn "0 s left") that no wall clock gives.
        outbox = world.adapter.outbox
        await eventually(outbox.paced_out, 30.0, 0.002, "the paced calls sent")
        await world.settle()
    raise AssertionError("the table went on and on")


TIMED_OUT = re.compile(r"已超时|timed out")


def stale_in_group(calls: list[GroupCall]) -> str | None:
    """After each of the group's calls (replayed as its members see them): the first thing
    stale found — a live button on any message but the live table and the one post of the
    phase now (the lobby's, a settlement's Ready, a pause's Continue), or a time-out line
    anywhere but in a table message, or a time-out said above a table still giving the one who
    timed out 0 seconds; a header older than the table's state (a post kept above the table
    message when it is edited: the post came with an earlier state), or a post that ends the
    auction above a table still showing it open. None: nothing."""
    view = GroupView()
    for index, call in enumerate(calls):
        view.apply(call)
        title = TITLE.search(call.text)
        if call.kind == "edit" and title is not None and call.text[: title.start()].strip():
            return f"after call {index}: a header kept above an edit: {call.text!r}"
        for shown in view.shown.values():
            text = shown.text
            if AUCTION_OVER.search(text) and BIDS_OPEN.search(text) and TURN_LINE.search(text):
                return f"after call {index}: the auction's end above it open: {shown.text!r}"
        buttoned = [
            m.id
            for m in view.shown.values()
            if m.buttons and m.id != view.table and not TITLE.search(m.text)
        ]
        if len(buttoned) > 1:
            return f"after call {index}: live buttons on {buttoned} (the table: {view.table})"
        for message in view.shown.values():
            if TIMED_OUT.search(message.text) and not TITLE.search(message.text):
                return f"after call {index}: a time-out post {message.id}: {message.text!r}"
            if TIMED_OUT.search(message.text) and re.search(r"剩 0 秒|0 s left", message.text):
                return f"after call {index}: a time-out with 0 s left: {message.text!r}"
    return None


def buttons_left(calls: list[GroupCall]) -> list[int]:
    """The group's messages with live buttons once every call is made."""
    view = GroupView()
    for call in calls:
        view.apply(call)
    return [m.id for m in view.shown.values() if m.buttons]
