"""The Telegram adapter: one python-telegram-bot `Application` over the table host.

Polling by default; webhook mode when ``TELEGRAM_WEBHOOK_URL`` is set. ``TELEGRAM_API_BASE_URL``
points at a self-hosted Bot API server (``http://host:port/bot``). Rate limits: PTB's
`AIORateLimiter` (which also retries 429s) behind the host's own coalescing. Updates of
different chats are handled concurrently, each chat's in order (`ChatOrderedUpdates`).

Each update is handled once: Telegram re-sends a webhook post it got no timely answer for, and
a polled batch the bot was killed before confirming comes again after a restart. Each command
carries its update's id (`bot.reading.command.Delivery`); the table manager drops a command whose
update was taken already (checked under the chat's lock, in the database every process shares)
and takes it in the same transaction as the step it causes — so a crash before that step is
stored leaves the update to be handled when it comes again, and a crash after it drops the copy.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from typing import Any

from telegram import BotCommand, BotCommandScopeChat, Update
from telegram.error import InvalidToken, NetworkError, TelegramError
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChatMemberHandler,
    MessageHandler,
    filters,
)

from adapters.health import Health
from adapters.send_budget import TELEGRAM_RATE, SendBudget
from adapters.serving import DEFAULT_LIMITS, ServerLimits
from adapters.startup import StartupError, scrubbed
from adapters.telegram.inbox import GONE, TelegramInbox
from adapters.telegram.keyboards import PREFIX, chat_target, user_id_of
from adapters.telegram.limiter import TimedRateLimiter
from adapters.telegram.membership import Memberships
from adapters.telegram.outbox import TelegramOutbox
from adapters.telegram.request import CountedRequest
from adapters.telegram.updates import ChatOrderedUpdates
from adapters.telegram.webhook import Webhook
from adapters.web.door import WebDoor
from bot.commands.registry import LISTED, summary_text
from bot.hosting.manager import TableManager
from bot.ops.config import Settings
from storage import Database

log = logging.getLogger(__name__)
MENU_LANGUAGES = {None: "zh-Hans", "zh": "zh-Hans", "en": "en"}
"""Telegram keys command menus by two-letter language code only, so every 中文 user sees the
zh-Hans menu; replies follow the chat's or player's /lang, zh-Hant included."""
UPDATES = [Update.MESSAGE, Update.CALLBACK_QUERY, Update.MY_CHAT_MEMBER]


@dataclass(frozen=True)
class TelegramSettings:
    token: str
    base_url: str | None = None
    webhook_url: str | None = None
    webhook_listen: str = "0.0.0.0"
    webhook_port: int = 8443
    webhook_secret: str | None = None
    poll_timeout: int = 30
    webhook_limits: ServerLimits = DEFAULT_LIMITS
    """What a client of the webhook server may do (`adapters.serving`)."""
    mini_app: str = ""
    """``TELEGRAM_MINI_APP``: the web table's Mini App short name (@BotFather's
    /newapp); empty: the group's link opens the bot's main Mini App."""
    calls_per_second: float = TELEGRAM_RATE
    """The bot-wide send budget (``TELEGRAM_CALLS_PER_SECOND``, `adapters.send_budget`)."""

    @classmethod
    def from_settings(cls, settings: Settings) -> TelegramSettings | None:
        """Telegram's part of the checked settings (`bot.ops.config`); None without a token."""
        token = settings["TELEGRAM_BOT_TOKEN"]
        if not token:
            return None
        return cls(
            token=token,
            base_url=settings["TELEGRAM_API_BASE_URL"],
            webhook_url=settings["TELEGRAM_WEBHOOK_URL"],
            webhook_listen=settings["TELEGRAM_WEBHOOK_LISTEN"],
            webhook_port=settings["TELEGRAM_WEBHOOK_PORT"],
            webhook_secret=settings["TELEGRAM_WEBHOOK_SECRET"],
            mini_app=settings["TELEGRAM_MINI_APP"],
            calls_per_second=settings["TELEGRAM_CALLS_PER_SECOND"],
        )


class TelegramAdapter:
    def __init__(
        self,
        manager: TableManager,
        db: Database,
        settings: TelegramSettings,
        language: str,
        *,
        pace_speed: float = 1.0,
        web: WebDoor | None = None,
        health: Health | None = None,
    ) -> None:
        self.manager = manager
        self.db = db
        self.settings = settings
        limiter = TimedRateLimiter(
            max_retries=3, overall_time_period=1 / pace_speed, group_time_period=60 / pace_speed
        )
        budget = SendBudget(settings.calls_per_second, speed=pace_speed, platform="telegram")
        requests = CountedRequest(
            connection_pool_size=256, send_budget=budget, before_group_call=self._before_group_call
        )
        builder = (
            Application.builder()
            .token(settings.token)
            .request(requests)
            .rate_limiter(limiter)
            .concurrent_updates(ChatOrderedUpdates())
        )
        if settings.base_url:
            base = settings.base_url.rstrip("/")
            builder = builder.base_url(base).base_file_url(_file_url(base))
        self.application = builder.build()
        self.outbox = TelegramOutbox(
            self.application.bot,
            manager.name_at,
            manager.language_at,
            pace_speed=pace_speed,
            send_budget=budget,
            has_table=manager.has_table,
            on_reachable=db.set_reachable,
            on_migrated=self._moved,
            reader_language=manager.reader_language,
            web=web,
        )
        self.memberships = Memberships(self._ask_membership, lambda: budget)
        self.inbox = TelegramInbox(manager, self.outbox, language, on_language=self._chat_menu)
        self.language = language
        self.webhook: Webhook | None = None
        self.health = health
        """The process's health, which the webhook's ``/healthz`` reports."""
        self.requests = requests
        app = self.application
        app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, self.inbox.on_migration))
        app.add_handler(MessageHandler(filters.COMMAND, self.inbox.on_command))
        # In a private chat with the bot, words as players type them (出 2222, 不要, 叫分 100).
        private_text = filters.TEXT & filters.ChatType.PRIVATE & ~filters.COMMAND
        app.add_handler(MessageHandler(private_text, self.inbox.on_command))
        app.add_handler(CallbackQueryHandler(self.inbox.on_button))
        app.add_handler(
            ChatMemberHandler(self.inbox.on_membership, ChatMemberHandler.MY_CHAT_MEMBER)
        )
        self.application.add_error_handler(self._on_error)

    async def is_member(self, chat: str, user: str) -> bool:
        """Whether ``user`` is a member of the group of ``chat`` (Telegram's getChatMember,
        remembered a few minutes and asked at the send budget's lowest priority:
        `adapters.telegram.membership`): a member who is not seated may watch its web
        table."""
        if not chat.startswith(PREFIX) or not user.startswith(PREFIX):
            return False
        try:
            chat_id, user_id = chat_target(chat)[0], user_id_of(user)
        except ValueError:
            return False
        if chat_id > 0:  # a private chat (a practice table's): its one person, asked of no one
            return chat_id == user_id
        return await self.memberships.is_member(str(chat_id), str(user_id))

    async def _ask_membership(self, chat_id: str, user_id: str) -> bool:
        member = await self.application.bot.get_chat_member(int(chat_id), int(user_id))
        return member.status not in GONE

    async def _before_group_call(self, group: str) -> None:
        await self.outbox.before_group_call(group)

    async def _moved(self, chat: str, new_id: int) -> None:
        """A group turned out to have moved (to a supergroup): its table follows."""
        await self.inbox.move(chat, new_id)

    async def _on_error(self, update: object, context: Any) -> None:
        log.error("handling an update failed", exc_info=context.error)

    async def start(self) -> None:
        """Connect and start receiving updates; `StartupError` (token never in it) when
        Telegram rejects the token or cannot be reached."""
        app = self.application
        try:
            await app.initialize()
        except InvalidToken as error:
            raise StartupError("Telegram rejected the bot token (TELEGRAM_BOT_TOKEN).") from error
        except NetworkError as error:
            reason = scrubbed(str(error), self.settings.token)
            raise StartupError(f"Telegram's Bot API cannot be reached: {reason}") from error
        self.outbox.connected(app.bot.username, await self.db.reachable_users(PREFIX))
        await self._register_commands()
        await app.start()
        updater = app.updater
        if self.settings.webhook_url:
            await self._start_webhook()
        else:
            assert updater is not None
            await updater.start_polling(
                timeout=self.settings.poll_timeout,
                allowed_updates=UPDATES,
                error_callback=self._on_polling_error,
            )

    async def _start_webhook(self) -> None:
        """Our own webhook server (`adapters.telegram.webhook`), so that several processes can
        share a database and hand each other updates; they must share the secret."""
        secret = self.settings.webhook_secret
        ownership = self.manager.ownership
        if ownership is not None and not ownership.address:
            raise StartupError(
                "several processes share the database: set BOT_PEER_URL to where the others "
                "reach this process's webhook server (http://host:port, not the load "
                "balancer), so updates for its tables can be handed to it."
            )
        if secret is None:
            if self.manager.ownership is not None:
                raise StartupError(
                    "several processes share the database: set TELEGRAM_WEBHOOK_SECRET, the "
                    "same in each, so they accept each other's forwarded updates."
                )
            secret = secrets.token_urlsafe(32)
        listen, port = self.settings.webhook_listen, self.settings.webhook_port
        limits = self.settings.webhook_limits
        self.webhook = Webhook(
            self.application, self.manager, secret, listen, port, limits, health=self.health
        )
        await self.webhook.start()
        assert self.settings.webhook_url is not None
        await self.application.bot.set_webhook(
            self.settings.webhook_url, secret_token=secret, allowed_updates=UPDATES
        )

    def connection(self) -> dict[str, Any]:
        """For ``/healthz``: whether the Bot API answered the last call (polling, a
        getUpdates is always under way), and how updates arrive."""
        if self.settings.webhook_url:
            mode, receiving = "webhook", self.webhook is not None
        else:
            updater = self.application.updater
            mode, receiving = "polling", updater is not None and updater.running
        return {"connected": bool(receiving and self.requests.answered), "mode": mode}

    @staticmethod
    def _on_polling_error(error: TelegramError) -> None:
        log.warning("getUpdates failed (retrying): %s", error)

    async def _register_commands(self) -> None:
        for code, language in MENU_LANGUAGES.items():
            commands = menu(language)
            try:
                await self.application.bot.set_my_commands(commands, language_code=code)
            except TelegramError as error:  # a menu is a nicety: never a reason not to start
                log.warning("setMyCommands (%s) failed: %s", code, error)

    async def _chat_menu(self, chat_id: int, language: str) -> None:
        """A chat switched language: its own menu, since Telegram's per-language menus know
        only two-letter codes (so 繁體 could not be told from 简体 otherwise)."""
        commands = menu(language)
        try:
            await self.application.bot.set_my_commands(commands, scope=BotCommandScopeChat(chat_id))
        except TelegramError as error:
            log.warning("setMyCommands for a chat failed: %s", error)

    async def stop(self) -> None:
        app = self.application
        self.memberships.close()  # a watcher's check never holds up shutting down
        if self.webhook is not None:
            await self.webhook.stop()
        if app.updater is not None and app.updater.running:
            await app.updater.stop()
        if app.running:
            await app.stop()
        await self.outbox.close()
        await app.shutdown()


def _file_url(base: str) -> str:
    """``http://host/bot`` → ``http://host/file/bot`` (where the Bot API serves files)."""
    head, _, tail = base.rpartition("/")
    return f"{head}/file/{tail}"


def menu(language: str) -> list[BotCommand]:
    """The command menu in ``language``: every listed command (`bot.commands.registry`)."""
    return [BotCommand(spec.name, summary_text(language, spec)) for spec in LISTED]
