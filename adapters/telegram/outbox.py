"""Neutral outgoing messages as Bot API calls: paced in groups, edited in place, never lost.

- Group posts and the table message go through a `GroupPacer` per group (≤ 20 calls a
  minute, one per 3 s slot, table edits coalesced); a flush is scheduled for the moment the
  pacer names, never on a fixed timer.
- Every conversation (a group, a user's private chat) has one sender task, so messages keep
  their order and a slow call never holds up the host. A hand view waiting behind a newer one
  of the same slot is dropped: only the latest state is worth sending.
- A user who never opened the bot cannot be messaged first (403). The group is told, with a
  deep link; the hand is sent when they open it (see `inbox`).
- Answers to a button press become the press's alert (``answerCallbackQuery``), not messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from io import BytesIO

from telegram import Bot, Message
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TelegramError
from telegram.helpers import create_deep_linked_url

from adapters.telegram.keyboards import (
    chat_target,
    inline_keyboard,
    start_payload,
    user_id_of,
)
from bot.i18n import t
from bot.outgoing import Button, Outgoing
from bot.pacing import GroupPacer

log = logging.getLogger(__name__)
TEXT_LIMIT = 4096
SEND_ATTEMPTS = 4


@dataclass
class Origin:
    """The update being handled: who sent it, from where, and (for a button press) the
    answers collected for its alert."""

    user: str
    user_name: str
    private: bool
    alerts: list[str] | None = None


ORIGIN: ContextVar[Origin | None] = ContextVar("telegram_origin", default=None)


@dataclass
class Conversation:
    """One chat the bot writes to, with its queue and its sender task."""

    chat_id: int
    thread: int | None
    queue: deque[Outgoing] = field(default_factory=deque)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None


class TelegramOutbox:
    def __init__(
        self, bot: Bot, names: Callable[[str, str], str], language: Callable[[str], str],
        *, pace_speed: float = 1.0,
    ) -> None:  # fmt: skip
        self.bot = bot
        self.names = names
        """(table chat, user) → the player's name at that table."""
        self.language = language
        """table chat → the table's language."""
        self.pace_speed = pace_speed
        """How fast pacing time runs against the event loop's clock: 1 in service; a test
        or a simulation may run the one-minute budget faster."""
        self.reachable: set[str] = set()
        self.on_reachable: Callable[[str, str], Awaitable[None]] | None = None
        """Called (user, name) when a player first proves reachable: to remember it."""
        self._background: set[asyncio.Task[None]] = set()
        self._pacers: dict[str, GroupPacer] = {}
        self._flushes: dict[str, asyncio.TimerHandle] = {}
        self._conversations: dict[str, Conversation] = {}
        self._slots: dict[tuple[str, str, str], tuple[str, int]] = {}
        self._told_to_open: set[tuple[str, str]] = set()
        self.bot_username = ""

    # ----------------------------------------------------------------- routing

    async def __call__(self, message: Outgoing) -> None:
        if message.kind in ("group", "table"):
            self._pace(message)
        elif message.kind == "private":
            self._to_user(message)
        else:
            self._reply(message)

    def _reply(self, message: Outgoing) -> None:
        origin = ORIGIN.get()
        if origin is not None and origin.user == message.user and origin.alerts is not None:
            origin.alerts.append(message.text)  # shown as the button press's alert
            return
        if message.user in self.reachable or (origin is not None and origin.private):
            self._to_user(message)
            return
        # Not reachable privately: answer in the group, naming the player.
        name = self.names(message.chat, message.user or "")
        self._pace(replace(message, kind="group", text=f"{name}: {message.text}", user=None))

    def _to_user(self, message: Outgoing) -> None:
        assert message.user is not None
        self._enqueue(message.user, user_id_of(message.user), None, message)

    # ----------------------------------------------------------------- pacing

    def _pace_clock(self) -> float:
        return asyncio.get_running_loop().time() * self.pace_speed

    def _pace(self, message: Outgoing) -> None:
        pacer = self._pacers.get(message.chat)
        if pacer is None:
            pacer = self._pacers[message.chat] = GroupPacer(self._pace_clock)
        pacer.submit(message)
        self._flush(message.chat)

    def _flush(self, chat: str) -> None:
        self._flushes.pop(chat, None)
        pacer = self._pacers[chat]
        chat_id, thread = chat_target(chat)
        for message in pacer.due():
            self._enqueue(chat, chat_id, thread, message)
        when = pacer.next_time()
        if when is not None and chat not in self._flushes:
            loop = asyncio.get_running_loop()
            self._flushes[chat] = loop.call_at(when / self.pace_speed, self._flush, chat)

    # ----------------------------------------------------------------- sending

    def _enqueue(self, key: str, chat_id: int, thread: int | None, message: Outgoing) -> None:
        conversation = self._conversations.get(key)
        if conversation is None:
            conversation = self._conversations[key] = Conversation(chat_id, thread)
        conversation.queue.append(message)
        conversation.wake.set()
        if conversation.task is None or conversation.task.done():
            conversation.task = asyncio.create_task(self._drain(key, conversation))

    async def _drain(self, key: str, conversation: Conversation) -> None:
        while conversation.queue:
            message = conversation.queue.popleft()
            if message.slot is not None and any(
                later.slot == message.slot and later.chat == message.chat
                for later in conversation.queue
            ):
                continue  # a newer view of the same message waits: send only that one
            try:
                await self._deliver(key, conversation, message)
            except Exception:  # one failed message must never stop the conversation
                log.exception("sending to %s failed", key)
        conversation.wake.clear()

    async def _deliver(self, key: str, conversation: Conversation, message: Outgoing) -> None:
        for attempt in range(SEND_ATTEMPTS):
            try:
                await self._send_or_edit(key, conversation, message)
                if message.user is not None and message.kind != "group":
                    self._mark_reachable(message.user, message.chat)
                return
            except Forbidden:
                if message.user is not None:
                    self._unreachable(message)
                return
            except RetryAfter as wait:  # the rate limiter retries first; this is the rest
                await asyncio.sleep(_seconds(wait.retry_after))
            except (NetworkError, TimeoutError) as error:
                if isinstance(error, BadRequest):
                    log.warning("Telegram refused a message to %s: %s", key, error)
                    return
                await asyncio.sleep(0.5 * 2**attempt)
        log.warning("giving up on a message to %s after %d attempts", key, SEND_ATTEMPTS)

    async def _send_or_edit(self, key: str, conversation: Conversation, message: Outgoing) -> None:
        markup = inline_keyboard(message.chat, message.buttons)
        if message.filename is not None:
            document = BytesIO(message.text.encode())
            await self.bot.send_document(
                conversation.chat_id, document, filename=message.filename,
                message_thread_id=conversation.thread,
            )  # fmt: skip
            return
        slot_key = (key, message.chat, message.kind)
        if message.slot is not None:
            known = self._slots.get(slot_key)
            if known is not None and known[0] == message.slot:
                try:
                    await self.bot.edit_message_text(
                        message.text[:TEXT_LIMIT], chat_id=conversation.chat_id,
                        message_id=known[1], reply_markup=markup,
                    )  # fmt: skip
                    return
                except BadRequest as error:
                    if "not modified" in str(error).lower():
                        return
                    log.info("editing failed (%s); sending the message anew", error)
        chunks = _split(message.text)
        sent: Message | None = None
        for index, chunk in enumerate(chunks):
            sent = await self.bot.send_message(
                conversation.chat_id, chunk, message_thread_id=conversation.thread,
                reply_markup=markup if index == len(chunks) - 1 else None,
            )  # fmt: skip
        if message.slot is not None and sent is not None:
            self._slots[slot_key] = (message.slot, sent.message_id)

    # ----------------------------------------------------------------- reachability

    def _mark_reachable(self, user: str, chat: str) -> None:
        if user not in self.reachable and self.on_reachable is not None:
            task = asyncio.create_task(self.on_reachable(user, self.names(chat, user)))
            self._background.add(task)
            task.add_done_callback(self._background.discard)
        self.reachable.add(user)

    async def remember_reachable(self, user: str, name: str) -> None:
        self.opened(user)
        if self.on_reachable is not None:
            await self.on_reachable(user, name)

    def send_private(self, user: str, text: str) -> None:
        """A message to a player that belongs to no table (a greeting)."""
        self._to_user(Outgoing("private", "", text, user=user))

    def _unreachable(self, message: Outgoing) -> None:
        assert message.user is not None
        self.reachable.discard(message.user)
        self.tell_to_open(message.chat, message.user)

    def tell_to_open(self, chat: str, user: str) -> None:
        """Tell the group (once per player and table) that ``user`` has to open the bot to
        get their cards, with a button that does it."""
        if (chat, user) in self._told_to_open or not chat_target(chat)[0] < 0:
            return
        self._told_to_open.add((chat, user))
        lang = self.language(chat)
        text = t(
            lang,
            "{name}: open a private chat with me to receive your cards.",
            name=self.names(chat, user),
        )
        link = Button(t(lang, "Open the bot"), "", "", url=self.deep_link(chat))
        self._pace(Outgoing("group", chat, text, buttons=((link,),)))

    def deep_link(self, chat: str) -> str:
        return create_deep_linked_url(self.bot_username, start_payload(chat))

    def opened(self, user: str) -> None:
        """``user`` opened the private chat: they can be messaged from now on."""
        self.reachable.add(user)
        self._told_to_open = {(c, u) for c, u in self._told_to_open if u != user}

    async def close(self) -> None:
        for handle in self._flushes.values():
            handle.cancel()
        tasks = [c.task for c in self._conversations.values() if c.task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, TelegramError):
                await task


def _seconds(value: object) -> float:
    total = getattr(value, "total_seconds", None)
    return float(total()) if callable(total) else float(value)  # type: ignore[arg-type]


def _split(text: str) -> list[str]:
    """Telegram takes 4096 characters a message: long texts go in pieces, split at lines."""
    chunks: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > TEXT_LIMIT:
            chunks.append(line[:TEXT_LIMIT])
            line = line[TEXT_LIMIT:]
        if len(current) + len(line) + 1 > TEXT_LIMIT:
            chunks.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    return [*chunks, current] if current or not chunks else chunks
