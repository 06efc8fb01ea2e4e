"""Neutral outgoing messages as Bot API calls: paced in groups, edited in place, never lost
(the shared machinery is `adapters.delivery`).

- A user who never opened the bot cannot be messaged first (403). The group is told, with a
  deep link; the hand is sent when they open it (see `inbox`).
- Answers to a button press become the press's alert (``answerCallbackQuery``), not messages.
- Commands typed in a group are deleted in the background, within the group's budget.
- An answer to one person who typed in a group goes to them alone: privately where the bot
  can reach them; else in the group as a message of its own that calls them (a text
  mention), never joined with the table's posts nor kept as the table's header, and
  deleted after `ANSWER_SHOWN` seconds.
- Pictures (`Outgoing.picture`, drawn off the event loop): a message with one is a photo
  with the text as its caption, buttons and all, where the text fits a caption (1024
  characters). A group post whose text does not fit is the photo and then the text (two
  group calls, both counted by the pacer).
- A private hand is one photo message: its picture, its text as caption, its keyboard,
  edited in place (`adapters.telegram.hand_photo`); a hand asked for with /hand is sent
  anew at the end of the chat, the old one deleted.
- Every group call passes the group's budget when it is made (`adapters.telegram.request`).
- A group that became a supergroup answers ``ChatMigrated``: the table follows it
  (``on_migrated``) and the message goes to the new chat.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, replace
from io import BytesIO
from typing import Any

from telegram import Bot, Message, MessageEntity, User
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter
from telegram.helpers import create_deep_linked_url

from adapters.delivery import DELETE
from adapters.message_parts import draw, split_text
from adapters.send_budget import SendBudget
from adapters.slot_places import SlotPlace, slot_place
from adapters.telegram.api_values import has_page, markup_json, retry_seconds, utf16_length
from adapters.telegram.hand_photo import HandPhotos
from adapters.telegram.keyboards import (
    chat_key,
    chat_target,
    inline_keyboard,
    is_group,
    start_payload,
    user_id_of,
)
from adapters.web.door import WebDoor
from bot.i18n import t
from bot.views.outgoing import Button, Kind, Outgoing

log = logging.getLogger(__name__)
TEXT_LIMIT = 4096
CAPTION_LIMIT = 1024
SEND_ATTEMPTS = 4
ANSWER_SHOWN = 30.0
"""Seconds (pacing time) an answer to one person stays in the group, where it had to go
(they never opened the bot): long enough to read, then it leaves the table's chat."""


@dataclass
class Origin:
    """The update being handled: who sent it, from where, and (for a button press) the
    answers collected for its alert."""

    user: str
    user_name: str
    private: bool
    alerts: list[str] | None = None
    about_own_cards: bool = False
    """A game command (its answers may describe the player's cards: never in the group)."""


class TelegramOutbox(HandPhotos):
    def __init__(
        self,
        bot: Bot,
        names: Callable[[str, str], str],
        language: Callable[[str], str],
        *,
        pace_speed: float = 1.0,
        send_budget: SendBudget | None = None,
        has_table: Callable[[str], bool] | None = None,
        on_reachable: Callable[[str, str], Coroutine[Any, Any, None]] | None = None,
        on_migrated: Callable[[str, int], Coroutine[Any, Any, None]] | None = None,
        reader_language: Callable[[str, str], str] | None = None,
        web: WebDoor | None = None,
    ) -> None:
        super().__init__(pace_speed, send_budget=send_budget, has_table=has_table)
        self.bot = bot
        self.names = names
        """(table chat, user) → the player's name at that table."""
        self.language = language
        """table chat → the table's language."""
        self.reachable: set[str] = set()
        self.on_reachable = on_reachable
        """Called (user, name) when a player first proves reachable: to remember it."""
        self._background: set[asyncio.Task[None]] = set()
        self._told_to_open: set[tuple[str, str]] = set()
        self.bot_username = ""
        self.on_migrated = on_migrated
        """Called (table chat, new Telegram chat id) when a group turned out to have moved."""
        self._moves: dict[int, asyncio.Task[None]] = {}
        self._captions: dict[SlotPlace, tuple[str | None, str, str | None]] = {}
        """Each message's place (`slot_place`) → what its captioned photo shows (`_caption`)."""
        self._texts: dict[SlotPlace, tuple[Any, str, str | None]] = {}
        """Each place → what its text message shows (id, text, keyboard): no empty edit."""
        self.web = web
        """The web table's door (``WEB_PUBLIC_URL`` set): its buttons join the private hand
        and the group's table (`_with_door`)."""
        self.reader_language = reader_language or (lambda chat, user: language(chat))
        """(chat, user) → the language the player reads there (a quick table's each their own)."""

    def connected(self, bot_username: str, reachable: set[str]) -> None:
        """What the Bot API and the store say once connected: the bot's username (for its
        links) and the people who have opened a private chat with it."""
        self.bot_username = bot_username
        self.reachable = reachable

    # ----------------------------------------------------------------- routing

    async def __call__(self, message: Outgoing, origin: Origin | None = None) -> None:
        """Send one message; ``origin`` is the update it answers (None: the table acted by
        itself, on a timer)."""
        if message.kind in (Kind.GROUP, Kind.TABLE):
            self.pace(message)
        elif message.kind == Kind.PRIVATE:
            self._to_user(message)
        else:
            self._reply(message, origin)

    def _reply(self, message: Outgoing, origin: Origin | None) -> None:
        if origin is not None and origin.user == message.user and origin.alerts is not None:
            if has_page(message) and message.user in self.reachable:
                self._to_user(message)  # a page's button (a replay's) shows in private alone
                return
            origin.alerts.append(message.text)  # shown as the button press's alert
            return
        if message.user in self.reachable or (origin is not None and origin.private):
            self._to_user(message)
            return
        if origin is not None and origin.about_own_cards and not message.public:
            self.tell_to_open(message.chat, message.user or "")  # the answer stays private
            return
        # Not reachable privately: answer in the group, calling the player by name (never by
        # an id), as a message of its own (kind REPLY: never joined with the table's posts
        # nor a header of the table), that goes after a while (`_answer_in_group`).
        if origin is not None and origin.user == message.user:
            name = origin.user_name
        else:
            name = self.names(message.chat, message.user or "")
        answer = f"{name}: {message.text}"
        self.pace(replace(message, text=answer, user=None, mention=message.user))

    def _to_user(self, message: Outgoing) -> None:
        assert message.user is not None
        self.enqueue(message.user, (user_id_of(message.user), None), message)

    platform = "telegram"
    counts_calls_when_made = True  # every group call passes `adapters.telegram.request`

    def group_target(self, chat: str) -> Any:
        return chat_target(chat)

    def budget_key(self, chat: str) -> str:
        return chat_key(chat_target(chat)[0])  # a forum's topics share the supergroup's

    def group_calls(self, message: Outgoing) -> int:
        fits = message.picture is None or len(message.resolved().text) <= CAPTION_LIMIT
        return 1 if fits or message.slot is not None else 2

    # ----------------------------------------------------------------- sending

    async def deliver(self, key: str, target: Any, message: Outgoing) -> None:
        if message.kind == DELETE:
            await self._delete(target[0], int(message.text))
            return
        if message.kind == Kind.REPLY and message.user is None:
            await self._answer_in_group(target, message)
            return
        for attempt in range(SEND_ATTEMPTS):
            try:
                await self._send_or_edit(key, target, message)
                if message.user is not None and message.kind != Kind.GROUP:
                    self._mark_reachable(message.user, message.chat)
                return
            except Forbidden:
                if message.user is not None:
                    self._unreachable(message)
                return
            except ChatMigrated as moved:
                self._follow(target[0], moved.new_chat_id, message)
                return
            except RetryAfter as wait:  # the rate limiter retries first; this is the rest
                await asyncio.sleep(retry_seconds(wait.retry_after))
            except (NetworkError, TimeoutError) as error:
                if isinstance(error, BadRequest):
                    log.warning("Telegram refused a message to %s: %s", key, error)
                    return
                await asyncio.sleep(0.5 * 2**attempt)
        log.warning("giving up on a message to %s after %d attempts", key, SEND_ATTEMPTS)

    async def _answer_in_group(self, target: Any, message: Outgoing) -> None:
        """An answer to one person in the group (they cannot be reached privately): it calls
        them, and is deleted `ANSWER_SHOWN` seconds later within the group's budget."""
        chat_id, thread = target
        text = message.text[:TEXT_LIMIT]
        name = text.split(": ", 1)[0]  # `_reply` starts it with the name it calls
        assert message.mention is not None
        person = User(id=user_id_of(message.mention), first_name=name, is_bot=False)
        calling = MessageEntity(MessageEntity.TEXT_MENTION, 0, utf16_length(name), user=person)
        try:
            sent = await self.bot.send_message(
                chat_id, text, message_thread_id=thread, entities=[calling]
            )
        except (BadRequest, Forbidden) as error:
            log.info("could not answer a person in the group: %s", error)
            return
        loop = asyncio.get_running_loop()
        loop.call_later(
            ANSWER_SHOWN / self.pace_speed, self.pace_delete, message.chat, sent.message_id
        )

    def _follow(self, old: int, new: int, message: Outgoing) -> None:
        """The group moved to ``new``: the table follows (once), then this message does."""
        log.info("a group moved to a new chat id; its table follows")
        move = self._moves.get(old)
        if move is None and self.on_migrated is not None:
            move = self._moves[old] = asyncio.create_task(self.on_migrated(message.chat, new))
        task = asyncio.create_task(self._resend_after(move, new, message))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _resend_after(
        self, move: asyncio.Task[None] | None, new: int, message: Outgoing
    ) -> None:
        if move is not None:
            await asyncio.shield(move)
        if message.kind == Kind.GROUP:  # the moved table sends its table message itself
            _, thread = chat_target(message.chat)
            self.pace(replace(message, chat=chat_key(new, thread)))

    def _mention(self, message: Outgoing, text: str) -> list[MessageEntity] | None:
        """The called player's name in ``text`` as a text mention: it notifies them, whether
        or not they have a username."""
        if message.mention is None:
            return None
        name = self.names(message.chat, message.mention)
        at = text.find(name)
        if at < 0 or not name:
            return None
        user = User(id=user_id_of(message.mention), first_name=name, is_bot=False)
        offset, length = utf16_length(text[:at]), utf16_length(name)
        return [MessageEntity(MessageEntity.TEXT_MENTION, offset, length, user=user)]

    async def retire(self, key: str, target: Any, message_id: Any, keep: str) -> None:
        chat_id, _ = target
        if not keep:
            await self._delete(chat_id, int(message_id))
            return
        try:
            await self.bot.edit_message_text(
                keep[:TEXT_LIMIT], chat_id=chat_id, message_id=int(message_id), reply_markup=None
            )
        except BadRequest as error:
            log.info("could not cut a table message down to its posts: %s", error)

    async def _send_or_edit(self, key: str, target: Any, message: Outgoing) -> None:
        chat_id, thread = target
        markup = inline_keyboard(message.chat, self._with_door(message))
        if message.filename is not None:
            document = BytesIO(message.text.encode())
            await self.bot.send_document(
                chat_id, document, filename=message.filename, message_thread_id=thread
            )
            return
        png = await draw(key, message)
        if message.slot is None and png is not None:
            await self._send_photo_post(chat_id, thread, png, message, markup)
            return
        if message.slot is not None:
            if message.asked:  # asked for: shown anew at the end of the chat, not above
                await self._drop_every_form(key, chat_id, message)
            if png is not None and len(message.text) <= CAPTION_LIMIT:
                await self._show_captioned(key, chat_id, thread, message, markup, png)
                return
            await self._uncaption(key, chat_id, message, png)
            await self._show_hand_picture(key, chat_id, thread, message, png)
        await self._show_text(key, chat_id, thread, message, markup)

    async def _show_text(
        self, key: str, chat_id: int, thread: int | None, message: Outgoing, markup: Any
    ) -> None:
        known = self.known_message(key, message)
        where = slot_place(key, message)
        shown = (message.text[:TEXT_LIMIT], markup_json(markup))
        if known is not None:
            if self._texts.get(where) == (known, *shown):
                return  # it shows this already: Telegram would refuse the edit (a 400)
            try:
                await self.bot.edit_message_text(
                    message.text[:TEXT_LIMIT],
                    chat_id=chat_id,
                    message_id=known,
                    reply_markup=markup,
                )
                self._texts[where] = (known, *shown)
                return
            except BadRequest as error:
                if "not modified" in str(error).lower():
                    self._texts[where] = (known, *shown)
                    return
                log.info("editing failed (%s); sending the message anew", error)
        chunks = split_text(message.text, TEXT_LIMIT)
        sent: Message | None = None
        for index, chunk in enumerate(chunks):
            sent = await self.bot.send_message(
                chat_id,
                chunk,
                message_thread_id=thread,
                reply_markup=markup if index == len(chunks) - 1 else None,
                entities=self._mention(message, chunk),
            )
        if sent is not None:
            self.remember_message(key, message, sent.message_id)
            if message.slot is not None and len(chunks) == 1:
                self._texts[where] = (sent.message_id, *shown)

    async def _send_photo_post(
        self, chat_id: int, thread: int | None, png: bytes, message: Outgoing, markup: Any
    ) -> None:
        """A post with its picture: the text as caption where it fits, else after it."""
        name = f"{message.kind}.png"
        if len(message.text) <= CAPTION_LIMIT:
            await self.bot.send_photo(
                chat_id,
                png,
                caption=message.text,
                filename=name,
                message_thread_id=thread,
                reply_markup=markup,
            )
            return
        await self.bot.send_photo(chat_id, png, filename=name, message_thread_id=thread)
        chunks = split_text(message.text, TEXT_LIMIT)
        for index, chunk in enumerate(chunks):
            await self.bot.send_message(
                chat_id,
                chunk,
                message_thread_id=thread,
                reply_markup=markup if index == len(chunks) - 1 else None,
            )

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
        self._to_user(Outgoing(Kind.PRIVATE, "", text, user=user))

    def _unreachable(self, message: Outgoing) -> None:
        assert message.user is not None
        self.reachable.discard(message.user)
        self.tell_to_open(message.chat, message.user)

    def _with_door(self, message: Outgoing) -> tuple[tuple[Button, ...], ...]:
        """The message's buttons, and under them the web table's where it is served: on a
        private hand a Mini App button (the player's seat, proved by Telegram's initData),
        on the group's table a link that opens the Mini App there (a group's keyboard may not
        hold a Mini App button)."""
        door = self.web
        if door is None:
            return self._pages_of_table(message)
        if any(b.url and b.url.startswith("/") for row in message.buttons for b in row):
            return self._pages_of_table(message)
        if message.kind == Kind.TABLE and chat_target(message.chat)[0] < 0:
            url = door.group_link(self.bot_username, message.chat)
            lang, opens_app = self.language(message.chat), False
        elif message.user is not None and (message.slot or "").startswith("hand"):
            url = door.mini_app_page(message.chat)
            lang = self.reader_language(message.chat, message.user)
            opens_app = True
        else:
            return message.buttons
        if url is None:
            return message.buttons
        button = Button(t(lang, "Open table"), "", "", url=url, opens_app=opens_app)
        return (*message.buttons, (button,))

    def _pages_of_table(self, message: Outgoing) -> tuple[tuple[Button, ...], ...]:
        """The bot's relative page links (``/replay?hand=3``) as Mini App buttons of the
        message's table where the web table is served and the message goes privately (only
        a private chat may carry one); left out otherwise."""
        door, private = self.web, message.kind == Kind.REPLY and message.user is not None
        rows = []
        for row in message.buttons:
            kept = []
            for button in row:
                if button.url and button.url.startswith("/"):
                    url = door.page_of_table(button.url, message.chat) if door else None
                    if url is None or not private:
                        continue
                    button = replace(button, url=url, opens_app=True)
                kept.append(button)
            if kept:
                rows.append(tuple(kept))
        return tuple(rows)

    def tell_to_open(self, chat: str, user: str) -> None:
        """Tell the group (once per player and table) that ``user`` has to open the bot to
        get their cards, with a button that does it."""
        if not chat or (chat, user) in self._told_to_open or not is_group(chat):
            return  # no group to tell (a greeting, a private table) or told already
        self._told_to_open.add((chat, user))
        lang = self.language(chat)
        text = t(
            lang,
            "{name}: open a private chat with me to receive your cards.",
            name=self.names(chat, user),
        )
        link = Button(t(lang, "Open the bot"), "", "", url=self.deep_link(chat))
        self.pace(Outgoing(Kind.GROUP, chat, text, buttons=((link,),)))

    def forget_chats(self, chats: set[str]) -> None:
        super().forget_chats(chats)
        self._captions = {k: v for k, v in self._captions.items() if k[1] not in chats}
        self._texts = {k: v for k, v in self._texts.items() if k[1] not in chats}
        self._told_to_open = {(c, u) for c, u in self._told_to_open if c not in chats}

    def deep_link(self, chat: str) -> str:
        return create_deep_linked_url(self.bot_username, start_payload(chat))

    def opened(self, user: str) -> None:
        """``user`` opened the private chat: they can be messaged from now on."""
        self.reachable.add(user)
        self._told_to_open = {(c, u) for c, u in self._told_to_open if u != user}
