"""Telegram updates as neutral commands: typed commands, button presses, deep-link opens,
and the chat's own changes (a group that became a supergroup, the bot removed from a group).

A button press acts on the chat it was pressed in, or — in a private chat — on the presser's
own hand at an open table where they are seated: never on a chat merely named in its
``callback_data``, which anyone can forge."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace

from telegram import CallbackQuery, Message, Update, User
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from adapters.telegram.keyboards import (
    Press,
    chat_key,
    chat_target,
    read_callback,
    read_start_payload,
    user_key,
)
from adapters.telegram.outbox import Origin, TelegramOutbox
from bot.commands.registry import (
    HOST_COMMANDS,
    OWN_CARDS,
    PRESSED_IN_PRIVATE,
    PRESSED_WHERE_SHOWN,
    SEATS_PLAYER,
    SETS_LANGUAGE,
    SHOWS_HAND,
)
from bot.hosting.manager import TableManager
from bot.i18n import normalize_language, t
from bot.reading.command import Command, Delivery, parse_command

log = logging.getLogger(__name__)
ALERT_LIMIT = 200
PLAYED_IN_PRIVATE = OWN_CARDS
"""Commands about a player's own cards: typed in a group, they are deleted there (where the
bot may) and answered privately."""
ADMIN_STATUSES = frozenset({ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR})
ADMIN_SECONDS = 300.0
"""How long an answer of ``getChatMember`` is trusted."""
GONE = frozenset({ChatMemberStatus.LEFT, ChatMemberStatus.BANNED})


def display_name(user: User) -> str:
    return user.full_name or user.username or str(user.id)


def message_chat(message: Message) -> str:
    thread = message.message_thread_id if message.is_topic_message else None
    return chat_key(message.chat_id, thread)


class TelegramInbox:
    def __init__(
        self,
        manager: TableManager,
        outbox: TelegramOutbox,
        language: str,
        on_language: Callable[[int, str], Awaitable[None]] | None = None,
    ) -> None:
        self.manager = manager
        self.outbox = outbox
        self.language = language
        self.on_language = on_language
        """Called (Telegram chat id, language) after a /lang: to give the chat its menu."""
        self._admins: dict[tuple[int, int], tuple[bool, float]] = {}

    async def on_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        user = update.effective_user
        if message is None or user is None or not message.text:
            return
        private = message.chat.type == ChatType.PRIVATE
        who = user_key(user.id)
        if private:
            self.outbox.opened(who)
        if private and message.text.split()[0].split("@")[0] == "/start":
            await self._opened(who, user, message.text.split()[1:], self._delivery(update))
            return
        chat = message_chat(message)
        command = parse_command(
            message.text,
            who,
            display_name(user),
            chat,
            private,
            user.language_code,
            bot_name=self.outbox.bot_username or None,
            plain=private,
        )
        if command is None:
            return  # plain text, or a command for another bot (/new@OtherBot)
        command = replace(command, delivery=self._delivery(update))
        if not private:
            command = replace(command, chat_title=message.chat.title)
        if not private and command.name in PLAYED_IN_PRIVATE:
            self.outbox.pace_delete(chat, message.message_id)  # in the background, paced
        if not private:
            command = await self._with_admin(command, message.chat_id, user.id)
        hidden = command.name in PLAYED_IN_PRIVATE
        await self._run(command, Origin(who, command.user_name, private, about_own_cards=hidden))
        if command.name in SEATS_PLAYER and not private and who not in self.outbox.reachable:
            self.outbox.tell_to_open(chat, who)
        if command.name in SETS_LANGUAGE and self.on_language is not None:
            await self.on_language(message.chat_id, self._chat_language(command, private))

    def _delivery(self, update: Update) -> Delivery:
        """The update a command came in: a copy of it delivered again is dropped."""
        return Delivery(f"telegram:{self.outbox.bot.id}", str(update.update_id))  # ids are
        # each bot's own

    async def _run(self, command: Command, origin: Origin) -> None:
        """Handle a command and send its answers, each knowing the update it answers."""
        for message in await self.manager.handle(command):
            await self.outbox(message, origin)

    def _chat_language(self, command: Command, private: bool) -> str:
        if private:  # a /lang in private sets the player's language, not the table's
            return normalize_language(command.args[0] if command.args else None) or self.language
        return self.manager.language_at(command.chat)

    async def _with_admin(self, command: Command, chat_id: int, user_id: int) -> Command:
        """The command, marked ``admin`` where Telegram says the user administers the chat
        and it is a host's command of a table they do not host."""
        hosts = self.manager.is_host(command.chat, command.user)  # None: no table there
        if command.name not in HOST_COMMANDS or hosts is None or hosts:
            return command
        return replace(command, admin=await self._is_admin(chat_id, user_id))

    async def _is_admin(self, chat_id: int, user_id: int) -> bool:
        now = asyncio.get_running_loop().time()
        known = self._admins.get((chat_id, user_id))
        if known is not None and now - known[1] < ADMIN_SECONDS:
            return known[0]
        try:
            member = await self.outbox.bot.get_chat_member(chat_id, user_id)
            admin = member.status in ADMIN_STATUSES
        except TelegramError as error:
            log.info("getChatMember failed in %s: %s", chat_id, error)
            return False
        self._admins[(chat_id, user_id)] = (admin, now)
        return admin

    async def _opened(self, who: str, user: User, args: list[str], delivery: Delivery) -> None:
        """``/start <code>``: the player opened the bot from the group's link; their hand
        (if a hand is running) follows at once."""
        lang = normalize_language(user.language_code) or self.language
        await self.outbox.remember_reachable(who, display_name(user))
        table = read_start_payload(args[0]) if args else None
        if table is None or not self.manager.has_table(table):
            table = self.manager.table_of(who)
        text = t(lang, "Hello! Your cards will come here.")
        self.outbox.send_private(who, text)
        if table is not None:
            command = Command(
                "hand",
                (),
                who,
                display_name(user),
                table,
                True,
                user.language_code,
                delivery=delivery,
            )
            await self._run(command, Origin(who, command.user_name, True))

    async def on_button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        user = query.from_user
        who = user_key(user.id)
        lang = normalize_language(user.language_code) or self.language
        press = read_callback(query.data)
        parsed = None
        if press is not None and self._may_press(query, press, who):
            parsed = parse_command(press.command, who, display_name(user), press.chat)
        if press is None or parsed is None:
            await query.answer(t(lang, "That button is not valid."), show_alert=True)
            return
        private = query.message is not None and query.message.chat.type == ChatType.PRIVATE
        if private:
            self.outbox.opened(who)
        command = Command(
            parsed.name,
            parsed.args,
            who,
            parsed.user_name,
            press.chat,
            private,
            user.language_code,
            press.stamp,
            delivery=self._delivery(update),
        )
        if not private and query.message is not None:
            command = await self._with_admin(command, query.message.chat.id, user.id)
            command = replace(command, chat_title=query.message.chat.title)
        origin = Origin(who, command.user_name, private, alerts=[])
        await self._run(command, origin)
        assert origin.alerts is not None
        text = "\n".join(origin.alerts)
        opens_bot = command.name in SEATS_PLAYER | SHOWS_HAND
        if opens_bot and not text and not private and who not in self.outbox.reachable:
            # Their cards go privately, where this player never opened the bot: open it.
            await query.answer(url=self.outbox.deep_link(press.chat))
            return
        await query.answer(text[:ALERT_LIMIT] or None, show_alert=bool(text))

    def _may_press(self, query: CallbackQuery, press: Press, who: str) -> bool:
        """In a group, a press acts on the group (and topic) it was pressed in; in a private
        chat, only on the presser's own hand (`PRESSED_IN_PRIVATE`) at an open table where
        they are seated, on that private chat's own table (`PRESSED_WHERE_SHOWN`: Replay), or
        Join at a table a /notify message told them of: it never opens, starts or stops one."""
        shown = query.message
        if shown is None:
            return False
        if shown.chat.type != ChatType.PRIVATE:
            if isinstance(shown, Message):
                return press.chat == message_chat(shown)
            return chat_target(press.chat)[0] == shown.chat.id  # too old to know its topic
        name = press.command.split()[0].split("@")[0].removeprefix("/")
        if name in PRESSED_WHERE_SHOWN:  # Replay under a practice table's settlement
            return isinstance(shown, Message) and press.chat == message_chat(shown)
        if name in SEATS_PLAYER:  # the Join button of a /notify message, to its addressee alone
            return self.manager.invited(press.chat, who)
        return name in PRESSED_IN_PRIVATE and self.manager.is_seated(press.chat, who)

    # ----------------------------------------------------------------- the chat itself

    async def on_migration(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A group became a supergroup: Telegram says so in both chats; the table follows."""
        message = update.effective_message
        if message is None:
            return
        if message.migrate_to_chat_id:
            old, new = message.chat_id, message.migrate_to_chat_id
        elif message.migrate_from_chat_id:
            old, new = message.migrate_from_chat_id, message.chat_id
        else:
            return
        await self.move(chat_key(old), new)

    async def move(self, old: str, new_chat_id: int) -> None:
        """Move the table of ``old`` (a Telegram chat key) to the chat ``new_chat_id``."""
        _, thread = chat_target(old)
        for message in await self.manager.move_chat(old, chat_key(new_chat_id, thread)):
            await self.outbox(message)

    async def on_membership(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The bot was removed from a group (left, kicked): its tables close."""
        changed = update.my_chat_member
        if changed is None or changed.new_chat_member.status not in GONE:
            return
        chat_id = changed.chat.id
        chats = {chat_key(chat_id)} | set(
            self.manager.tables_in(lambda chat: chat_target(chat)[0] == chat_id)
        )
        for chat in sorted(chats):
            await self.manager.close_chat(chat)
        log.info("removed from chat %s: its tables are closed", chat_id)
