"""What every chat platform's outbox needs: paced group posts and ordered private sending.

- Group posts and the table message go through a `GroupPacer` per group (≤ 20 calls a
  minute, one per 3 s slot, table edits coalesced); a flush is scheduled for the moment the
  pacer names, never on a fixed timer.
- Every conversation (a group, a user's private chat) has one sender task, so messages keep
  their order and a slow call never holds up the host. A view waiting behind a newer one of
  the same slot is dropped: only the latest state is worth sending. A new private message
  is sent in its newest view but where it was first queued (what came after stays below).
- Messages with a slot are edited in place: the platform's message id is remembered per
  conversation, table and kind; a new slot (the next hand) starts a new message.
- The table message moves down when posts come below it (`adapters.pacing`): a state with a
  header is sent anew, and the message above keeps only its own header (`retire`), or is
  deleted. An edit in place keeps the header its message has.
- A message's picture (`Outgoing.picture`) is drawn in a worker thread (`draw`), never on
  the event loop; a failure is logged and the text goes alone. What picture a slot's
  message shows is remembered by digest, so an unchanged picture is not uploaded again.
- One send budget for the whole bot (`adapters.send_budget`): each message is delivered
  under its priority (`CALLING`), and the calls it makes wait their turn bot-wide — where
  the adapter counts them (Telegram's requests), or here, one per message
  (``budget_each_message``: Discord).
- Deleting a command typed in a group (`pace_delete`) is a group call too: it counts against
  the group's one-minute budget, but only while no post or table edit waits and a reserve
  of the budget stays for them, so tidying up never delays the game.
- Memory does not grow with every chat ever seen: a conversation is dropped once its queue
  is sent, and what is kept per group (its pacer, its budget once every call of it has left
  the window, the ids of the messages it edits) goes once the group has no table and has
  been quiet for a whole budget window (``has_table``; without it, after `FORGET_IDLE`).
"""

from __future__ import annotations

import asyncio
import logging
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable
from typing import Any

from adapters.conversations import Conversation, newer_view
from adapters.message_parts import digest
from adapters.pacing import BUDGET, SLOT, WINDOW, CallBudget, GroupPacer
from adapters.send_budget import CALLING, SendBudget, priority_of
from adapters.slot_places import SlotPlace, slot_place
from bot.ops import metrics
from bot.views.outgoing import Kind, Outgoing

log = logging.getLogger(__name__)
DELETE = Kind.DELETE
"""The kind of a queued deletion: its ``text`` is the platform's id of the message."""
DELETE_RESERVE = 10
"""Calls of a group's one-minute budget that deletions leave to posts and edits."""
CLOSE_SECONDS = 2.0
"""How long closing waits for the calls under way to end once cancelled."""
FORGET_IDLE = 3600.0
"""Seconds (pacing time) a group's delivery state is kept after its last message where the
adapter cannot tell whether it has a table (``has_table`` unset)."""
CALL_MARGIN = 1.0
"""Where calls are counted when made, the window is this much longer than the platform's
minute: what the platform receives a little later or sooner still fits its budget."""


class Delivery(ABC):
    platform = "chat"
    """The platform's name, as the figures label its calls (`bot.ops.metrics`)."""
    counts_calls_when_made = False
    """Whether the adapter calls `before_group_call` before each group call it makes (the
    budget then counts calls when made, not when released)."""
    pace_slot = SLOT
    pace_budget = BUDGET
    pace_window = WINDOW
    """The platform's limit for one group: ``pace_budget`` calls in ``pace_window`` seconds,
    released one per ``pace_slot`` (Telegram's 20 a minute unless a platform says
    otherwise)."""

    budget_each_message = False
    """Whether each message waits for the bot-wide `send_budget` here (else the adapter's
    calls do, each when made)."""

    def __init__(
        self,
        pace_speed: float = 1.0,
        *,
        send_budget: SendBudget | None = None,
        has_table: Callable[[str], bool] | None = None,
    ) -> None:
        self.pace_speed = pace_speed
        """How fast pacing time runs against the event loop's clock: 1 in service; a test
        or a simulation may run the one-minute budget faster."""
        self.send_budget = send_budget
        """The bot-wide budget of calls a second (None: none kept here)."""
        self._pacers: dict[str, GroupPacer] = {}
        self._budgets: dict[str, CallBudget] = {}
        self.group_calls_made: deque[tuple[str, float]] = deque(maxlen=10_000)
        """(group, pacing time) of the latest group calls, as the budget counted them: when
        made (`before_group_call`), or else when released."""
        self._flushes: dict[str, asyncio.Handle] = {}
        self.conversations: dict[str, Conversation] = {}
        self._slots: dict[SlotPlace, tuple[str, Any]] = {}
        self._deletes: dict[str, deque[Outgoing]] = {}
        self._pictures: dict[SlotPlace, tuple[str, str]] = {}
        self._headers: dict[tuple[str, str], tuple[str, str]] = {}
        """(conversation, table chat) → the slot of the table message shown and its header."""
        self._closed = False
        self.has_table = has_table
        """Whether a chat has an open table (the host's): a group with none forgets its
        delivery state once quiet (`forget_quiet_chats`)."""
        self._used: dict[str, float] = {}
        """group chat → when (pacing time) it was last given something to send."""
        self._forgetting: asyncio.TimerHandle | None = None

    @abstractmethod
    def group_target(self, chat: str) -> Any:
        """The platform's handle for a table's group chat."""

    @abstractmethod
    async def deliver(self, key: str, target: Any, message: Outgoing) -> None:
        """Send or edit one message; errors are the platform's to handle."""

    @abstractmethod
    async def retire(self, key: str, target: Any, message_id: Any, keep: str) -> None:
        """A table message was sent anew below this one: it keeps only ``keep`` (the posts
        it was headed by), without buttons, or is deleted if ``keep`` is empty."""

    def group_calls(self, message: Outgoing) -> int:
        """How many calls a released group message costs (a picture whose caption cannot
        hold the text costs a second one)."""
        return 1

    # ----------------------------------------------------------------- pacing

    def _pace_clock(self) -> float:
        return asyncio.get_running_loop().time() * self.pace_speed

    def budget_key(self, chat: str) -> str:
        """The group whose call budget a table's chat spends (a forum's topics share their
        supergroup's)."""
        return chat

    def _budget(self, key: str) -> CallBudget:
        budget = self._budgets.get(key)
        if budget is None:
            window = self.pace_window + (CALL_MARGIN if self.counts_calls_when_made else 0.0)
            budget = CallBudget(self.pace_budget, window, self.counts_calls_when_made)
            self._budgets[key] = budget
        return budget

    def _pacer(self, chat: str) -> GroupPacer:
        pacer = self._pacers.get(chat)
        if pacer is None:
            budget = self._budget(self.budget_key(chat))
            pacer = GroupPacer(
                self._pace_clock,
                slot=self.pace_slot,
                calls=budget,
                lobby_slot=budget.window / (self.pace_budget // 2 or 1),
            )
            self._pacers[chat] = pacer
            self._forget_later()
        self._used[chat] = self._pace_clock()
        return pacer

    async def before_group_call(self, key: str) -> None:
        """Called by the adapter just before it makes a call to the group ``key``: waits, if
        need be, until the call keeps every window within the budget, and counts it. The
        pacer's slots make this wait rare — a call made late, or one that ends in two."""
        budget = self._budget(key)
        began = self._pace_clock()
        while True:
            now = self._pace_clock()
            at = budget.made_room_at(now)
            if at <= now:
                break
            await asyncio.sleep((at - now) / self.pace_speed)
        budget.made(now)
        self.group_calls_made.append((key, now))
        metrics.waited(self.platform, "group", (now - began) / self.pace_speed)
        metrics.group_call(self.platform)

    def pace(self, message: Outgoing) -> None:
        self._pacer(message.chat).submit(message)
        self._flush_soon(message.chat)

    def _flush_soon(self, chat: str) -> None:
        """Look at the group's calls once what the table says at this moment is all
        submitted (the host hands a step's messages over one after the other without
        yielding): a post that ends a phase is then released with the state that follows it
        as its table, never above the state before (an auction still open)."""
        scheduled = self._flushes.pop(chat, None)
        if scheduled is not None:
            scheduled.cancel()
        self._flushes[chat] = asyncio.get_running_loop().call_soon(self._flush, chat)

    def pace_delete(self, chat: str, message_id: Any) -> None:
        """Delete a message in a group's chat, in the background, within its budget."""
        self._pacer(chat)
        self._deletes.setdefault(chat, deque()).append(Outgoing(DELETE, chat, str(message_id)))
        self._flush(chat)

    def _flush(self, chat: str) -> None:
        scheduled = self._flushes.pop(chat, None)
        if scheduled is not None:
            scheduled.cancel()  # called early (a new message): the timer is redone below
        pacer = self._pacers.get(chat)
        if pacer is None:
            return  # forgotten (`forget_quiet_chats`): nothing waited
        for message in pacer.due():
            # The budget counts every call made (a second one for a long text's picture).
            now, calls = self._pace_clock(), self.group_calls(message)
            if message.header is not None and self.known_message(chat, message) is not None:
                calls += 1  # the table message above is changed too
            pacer.budget.released(now, calls - 1)
            self._counted_at_release(chat, now, calls)
            self.enqueue(chat, self.group_target(chat), message)
        when = pacer.next_time()
        deletes = self._deletes.get(chat)
        if deletes and when is None:
            when = self._release_deletes(chat, pacer, deletes)
        if when is not None and chat not in self._flushes:
            loop = asyncio.get_running_loop()
            self._flushes[chat] = loop.call_at(when / self.pace_speed, self._flush, chat)

    def _release_deletes(
        self, chat: str, pacer: GroupPacer, deletes: deque[Outgoing]
    ) -> float | None:
        """Send the deletions the budget has room for; returns when to look again."""
        now = self._pace_clock()
        reserve = min(DELETE_RESERVE, self.pace_budget // 2)
        while deletes and pacer.budget.room(now) > reserve and pacer.lobby_ready(now):
            pacer.lobby_spent(now)  # tidying shares the lobby's half of the budget
            pacer.budget.released(now)
            self._counted_at_release(chat, now, 1)
            # Their own conversation: a deletion never holds up a post behind it.
            self.enqueue(chat + "#delete", self.group_target(chat), deletes.popleft())
        if not deletes:
            return None
        return max(pacer.budget.free_at(now, keep=reserve), pacer.next_lobby)

    def _counted_at_release(self, chat: str, now: float, calls: int) -> None:
        if not self.counts_calls_when_made:  # else `before_group_call` logs each call made
            self.group_calls_made.extend([(self.budget_key(chat), now)] * calls)
            for _ in range(calls):
                metrics.group_call(self.platform)

    # ----------------------------------------------------------------- sending

    def enqueue(self, key: str, target: Any, message: Outgoing) -> None:
        if self._closed:
            return  # shutting down: the restored table sends a fresh view on the next start
        conversation = self.conversations.get(key)
        if conversation is None:
            conversation = self.conversations[key] = Conversation()
        conversation.queue.append((target, message))
        if conversation.task is None or conversation.task.done():
            conversation.task = asyncio.create_task(self._drain(key, conversation))

    async def _drain(self, key: str, conversation: Conversation) -> None:
        try:
            await self._send_queued(key, conversation)
        finally:
            if not conversation.queue and self.conversations.get(key) is conversation:
                del self.conversations[key]  # all sent: a next message starts a new one

    async def _send_queued(self, key: str, conversation: Conversation) -> None:
        while conversation.queue:
            target, message = conversation.queue.popleft()
            newer = newer_view(conversation, target, message)
            if newer is not None and not self._first_in_place(key, message):
                continue  # a newer view of the same message waits: send only that one
            while newer is not None:  # a new private message: its newest view, in its place
                message = conversation.queue[newer][1]
                del conversation.queue[newer]
                newer = newer_view(conversation, target, message)
            priority = priority_of(message)
            marked = CALLING.set(priority)  # what this message's calls wait under
            try:
                if self.budget_each_message and self.send_budget is not None:
                    await self.send_budget.call(priority)
                if message.kind == Kind.TABLE:
                    await self._deliver_table(key, target, message.resolved())
                else:
                    await self.deliver(key, target, message.resolved())
            except Exception:  # one failed message must never stop the conversation
                log.exception("sending to %s failed", key)
            finally:
                CALLING.reset(marked)

    def _first_in_place(self, key: str, message: Outgoing) -> bool:
        """Whether ``message`` makes a new private message (its slot not shown yet): sent in
        its newest view but where it was first queued, so that what was queued after it (a
        quick table's hand, after the trick's message) stays below it in the chat."""
        return (
            message.kind == Kind.PRIVATE
            and message.header is None
            and self.known_message(key, message) is None
        )

    async def _deliver_table(self, key: str, target: Any, message: Outgoing) -> None:
        """The table message: edited in place under its header, or sent anew below with a
        new header, the one above then retired."""
        where = (key, message.chat)
        slot, header = self._headers.get(where, ("", ""))
        if slot != message.slot:
            header = ""  # a new hand's table message starts without one
        if message.header is None:
            await self.deliver(key, target, message.with_text(message.shown_text(header)))
            self._headers[where] = (message.slot or "", header)
            return
        above = self.known_message(key, message)
        self._slots.pop(slot_place(key, message), None)  # sent anew, not edited
        await self.deliver(key, target, message.with_text(message.shown_text(message.header)))
        self._headers[where] = (message.slot or "", message.header)
        if above is not None:
            await self.retire(key, target, above, header)

    def known_message(self, key: str, message: Outgoing) -> Any:
        """The platform's id of the message this one edits in place, if it was sent."""
        if message.slot is None:
            return None
        known = self._slots.get(slot_place(key, message))
        return known[1] if known is not None and known[0] == message.slot else None

    def remember_message(self, key: str, message: Outgoing, message_id: Any) -> None:
        if message.slot is not None:
            self._slots[slot_place(key, message)] = (message.slot, message_id)

    # ----------------------------------------------------------------- pictures

    def picture_shown(self, key: str, message: Outgoing) -> str | None:
        """The digest of the picture this slot's message shows now (None: none known)."""
        known = self._pictures.get(slot_place(key, message))
        return known[1] if known is not None and known[0] == message.slot else None

    def remember_picture(self, key: str, message: Outgoing, png: bytes | None) -> None:
        if message.slot is None:
            return
        where = slot_place(key, message)
        if png is None:
            self._pictures.pop(where, None)
        else:
            self._pictures[where] = (message.slot, digest(png))

    def paced_out(self) -> bool:
        """No group call waits for its slot (deletions included)."""
        return all(pacer.next_time() is None for pacer in self._pacers.values()) and not any(
            self._deletes.values()
        )

    def idle(self) -> bool:
        """Nothing waits to be sent (paced group calls aside)."""
        return all(
            not c.queue and (c.task is None or c.task.done()) for c in self.conversations.values()
        )

    # ----------------------------------------------------------------- forgetting

    def _forget_later(self) -> None:
        if self._forgetting is None and not self._closed:
            delay = self.pace_window / self.pace_speed
            self._forgetting = asyncio.get_running_loop().call_later(delay, self._forget_timer)

    def _forget_timer(self) -> None:
        self._forgetting = None
        self.forget_quiet_chats()
        if self._pacers or self._budgets:
            self._forget_later()

    def forget_quiet_chats(self) -> list[str]:
        """Drop what is kept for each group that has no table (or, unknown, has been idle for
        `FORGET_IDLE`), has nothing left to send and was given nothing for a whole budget
        window; and each budget whose calls have all left its window. Returns the chats."""
        now = self._pace_clock()
        gone = [chat for chat in self._pacers if self._quiet(chat, now)]
        for chat in gone:
            del self._pacers[chat]
            self._used.pop(chat, None)
            self._deletes.pop(chat, None)
        if gone:
            self.forget_chats(set(gone))
        spent = {self.budget_key(chat) for chat in self._pacers}
        self._budgets = {
            key: budget
            for key, budget in self._budgets.items()
            if key in spent or budget.room(now) < budget.budget
        }
        if gone:  # anew: a dict keeps the size of its busiest moment otherwise
            self._pacers, self._used = dict(self._pacers), dict(self._used)
            self._deletes, self.conversations = dict(self._deletes), dict(self.conversations)
        return gone

    def _quiet(self, chat: str, now: float) -> bool:
        used = self._used.get(chat, now)
        if self.has_table is None:
            if now - used < FORGET_IDLE:
                return False
        elif self.has_table(chat) or now - used < self.pace_window:
            return False
        waiting = self._pacers[chat].next_time() is not None or self._deletes.get(chat)
        busy = chat in self._flushes or chat in self.conversations
        return not waiting and not busy and chat + "#delete" not in self.conversations

    def forget_chats(self, chats: set[str]) -> None:
        """Forget the messages shown for these tables' chats (every conversation's: the
        group's and its players' private ones). An adapter adds what it keeps per chat."""
        self._slots = {k: v for k, v in self._slots.items() if k[1] not in chats}
        self._pictures = {k: v for k, v in self._pictures.items() if k[1] not in chats}
        self._headers = {k: v for k, v in self._headers.items() if k[1] not in chats}

    def kept_chats(self) -> dict[str, int]:
        """How many of each kind of per-chat state are kept now (for tests and figures)."""
        return {"pacers": len(self._pacers), "budgets": len(self._budgets),
                "conversations": len(self.conversations), "slots": len(self._slots),
                "headers": len(self._headers), "pictures": len(self._pictures),
                "used": len(self._used), "deletes": len(self._deletes)}  # fmt: skip

    async def close(self) -> None:
        self._closed = True
        if self._forgetting is not None:
            self._forgetting.cancel()
        for handle in self._flushes.values():
            handle.cancel()
        # What still waits is dropped (the restored tables send fresh views on the next
        # start); a call under way gets `CLOSE_SECONDS` to end, never more.
        tasks = [c.task for c in self.conversations.values() if c.task is not None]
        for task in tasks:
            task.cancel()
        if tasks:
            ended, stuck = await asyncio.wait(tasks, timeout=CLOSE_SECONDS)
            for task in ended:
                if not task.cancelled():
                    task.exception()  # retrieved: a send's failure was logged already
            if stuck:
                log.warning("%d sends did not end in %g s: left behind", len(stuck), CLOSE_SECONDS)
        self.conversations.clear()
