"""Telegram updates as neutral commands: typed commands, button presses, deep-link opens."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from telegram import Message, Update, User
from telegram.constants import ChatType
from telegram.ext import ContextTypes

from adapters.telegram.keyboards import chat_key, read_callback, read_start_payload, user_key
from adapters.telegram.outbox import Origin, TelegramOutbox
from bot.commands import Command, parse_command
from bot.i18n import normalize_language, t
from bot.manager import TableManager

log = logging.getLogger(__name__)
ALERT_LIMIT = 200
PLAYED_IN_PRIVATE = frozenset(
    {"play", "pass", "bid", "trump", "bury", "surrender", "bonus", "show", "reveal", "auto",
     "hand", "pick", "clear", "go"}
)  # fmt: skip
"""Commands about a player's own cards: typed in a group, they are deleted there (where the
bot may) and answered privately."""


def display_name(user: User) -> str:
    return user.full_name or user.username or str(user.id)


def message_chat(message: Message) -> str:
    thread = message.message_thread_id if message.is_topic_message else None
    return chat_key(message.chat_id, thread)


class TelegramInbox:
    def __init__(self, manager: TableManager, outbox: TelegramOutbox, language: str) -> None:
        self.manager = manager
        self.outbox = outbox
        self.language = language
        self.on_language: Callable[[int, str], Awaitable[None]] | None = None
        """Called (Telegram chat id, language) after a /lang: to give the chat its menu."""

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
            await self._opened(who, user, message.text.split()[1:])
            return
        chat = message_chat(message)
        command = parse_command(
            message.text, who, display_name(user), chat, private, user.language_code
        )
        if command is None:
            return
        if private and command.name != "new":
            chat = self.manager.table_of(who) or chat  # a private command acts at the table
            command = Command(command.name, command.args, who, command.user_name, chat, True,
                              command.lang)  # fmt: skip
        if not private and command.name in PLAYED_IN_PRIVATE:
            await self._delete(message)
        hidden = command.name in PLAYED_IN_PRIVATE
        await self._run(command, Origin(who, command.user_name, private, about_own_cards=hidden))
        if command.name == "join" and not private and who not in self.outbox.reachable:
            self.outbox.tell_to_open(chat, who)
        if command.name == "lang" and self.on_language is not None:
            await self.on_language(message.chat_id, self._chat_language(command, private))

    async def _run(self, command: Command, origin: Origin) -> None:
        """Handle a command and send its answers, each knowing the update it answers."""
        for message in await self.manager.handle(command):
            await self.outbox(message, origin)

    def _chat_language(self, command: Command, private: bool) -> str:
        if private:  # a /lang in private sets the player's language, not the table's
            return normalize_language(command.args[0] if command.args else None) or self.language
        return self.manager.language_at(command.chat)

    async def _delete(self, message: Message) -> None:
        try:
            await message.delete()
        except Exception as error:  # no right to delete here: the command stays, that is all
            log.info("could not delete a command in %s: %s", message.chat_id, error)

    async def _opened(self, who: str, user: User, args: list[str]) -> None:
        """``/start <code>``: the player opened the bot from the group's link; their hand
        (if a hand is running) follows at once."""
        lang = normalize_language(user.language_code) or self.language
        await self.outbox.remember_reachable(who, display_name(user))
        table = read_start_payload(args[0]) if args else None
        table = table if table in self.manager.tables else self.manager.table_of(who)
        text = t(lang, "Hello! Your cards will come here.")
        self.outbox.send_private(who, text)
        if table is not None:
            command = Command("hand", (), who, display_name(user), table, True, user.language_code)
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
        if press is not None:
            parsed = parse_command(press.command, who, display_name(user), press.chat)
        if press is None or parsed is None:
            await query.answer(t(lang, "That button is not valid."), show_alert=True)
            return
        private = query.message is not None and query.message.chat.type == ChatType.PRIVATE
        if private:
            self.outbox.opened(who)
        command = Command(parsed.name, parsed.args, who, parsed.user_name, press.chat, private,
                          user.language_code, press.stamp)  # fmt: skip
        origin = Origin(who, command.user_name, private, alerts=[])
        await self._run(command, origin)
        assert origin.alerts is not None
        text = "\n".join(origin.alerts)
        opens_bot = command.name in ("hand", "join")
        if opens_bot and not text and not private and who not in self.outbox.reachable:
            # Their cards go privately, where this player never opened the bot: open it.
            await query.answer(url=self.outbox.deep_link(press.chat))
            return
        await query.answer(text[:ALERT_LIMIT] or None, show_alert=bool(text))
