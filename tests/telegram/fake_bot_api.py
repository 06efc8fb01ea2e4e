"""A small Bot API server on 127.0.0.1 for the real python-telegram-bot to talk to.

It records every call, keeps the messages the bot sent (so a test can press their buttons),
long-polls ``getUpdates`` from the updates a test queues, and refuses private messages to
users who never opened the bot (403, as Telegram does).

A kept photo has its ``caption`` and, for the tests' reading, the same as ``text``; what the
library receives (answers, pressed messages) is Telegram's form, a photo without ``text``.
"""

from __future__ import annotations

import asyncio
import copy
import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

BOT_ID = 7000
BOT_USERNAME = "cardhost_bot"
NEVER_OPENED = "Forbidden: bot can't initiate conversation with a user"
NOT_FOUND = "Bad Request: message to edit not found"
NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup "
    "are exactly the same as a current content and reply markup of the message"
)


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    at: float


UPDATE_IDS = itertools.count(1)
"""Update ids go on growing across fakes, as Telegram's do across a bot's restarts (the bot
remembers the last hour's and drops one it saw)."""


@dataclass
class FakeBotAPI:
    calls: list[Call] = field(default_factory=list)
    updates: list[dict[str, Any]] = field(default_factory=list)
    messages: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)
    never_opened: set[int] = field(default_factory=set)
    """Users who never started the bot: private messages to them are refused."""
    fail_next: dict[str, int] = field(default_factory=dict)
    """method → how many of its next calls answer 429 (retry after 1 s)."""
    refuse_next: dict[str, str] = field(default_factory=dict)
    """method → the description its next call is refused with (400, "Bad Request: …")."""
    admins: set[int] = field(default_factory=set)
    """Users whom ``getChatMember`` names administrators of every group."""
    migrated: dict[int, int] = field(default_factory=dict)
    """Groups that became supergroups: old chat id → new (sending there is refused)."""
    reject_token: bool = False
    """Answer ``getMe`` with 401, as Telegram does for a revoked or mistyped token."""
    pushed_at: dict[int, float] = field(default_factory=dict)
    """update id → when the test queued it (this server's clock)."""
    delivered: int = 0
    not_modified: int = 0
    """Edits refused as changing nothing ("message is not modified")."""
    port: int = 0

    def __post_init__(self) -> None:
        self._new_update = asyncio.Event()
        self._next_message = 100
        self._next_file = 0
        self._stopping = False
        self._runner: web.AppRunner | None = None

    # ----------------------------------------------------------------- server

    async def start(self) -> str:
        app = web.Application()
        app.router.add_post("/bot{token}/{method}", self._handle)
        app.router.add_get("/bot{token}/{method}", self._handle)
        self._runner = web.AppRunner(app, shutdown_timeout=0.1)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return f"http://127.0.0.1:{self.port}/bot"

    async def stop(self) -> None:
        self._stopping = True
        self._new_update.set()
        if self._runner is not None:
            await self._runner.cleanup()

    async def _handle(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        params = await _params(request)
        self.calls.append(Call(method, params, time.monotonic()))
        if self.fail_next.get(method, 0) > 0:
            self.fail_next[method] -= 1
            return _reply(
                {
                    "ok": False,
                    "error_code": 429,
                    "description": "Too Many Requests",
                    "parameters": {"retry_after": 1},
                }
            )
        if method in self.refuse_next:
            return _bad_request(self.refuse_next.pop(method))
        handler = getattr(self, f"api_{method}", None)
        if handler is None:
            return _reply({"ok": True, "result": True})
        result = await handler(params)
        if isinstance(result, web.Response):
            return result
        return _reply({"ok": True, "result": result})

    # ----------------------------------------------------------------- methods

    async def api_getMe(self, params: dict[str, Any]) -> Any:
        if self.reject_token:
            return _reply({"ok": False, "error_code": 401, "description": "Unauthorized"})
        return {"id": BOT_ID, "is_bot": True, "first_name": "Card host",
                "username": BOT_USERNAME, "can_join_groups": True}  # fmt: skip

    async def api_getUpdates(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        offset = int(params.get("offset", 0) or 0)
        timeout = float(params.get("timeout", 0) or 0)
        deadline = time.monotonic() + timeout
        while not self._stopping:
            ready = [u for u in self.updates if u["update_id"] >= offset]
            if ready:
                self.delivered = max(self.delivered, ready[-1]["update_id"])
                return ready
            left = deadline - time.monotonic()
            if left <= 0:
                return []
            self._new_update.clear()
            try:
                await asyncio.wait_for(self._new_update.wait(), timeout=left)
            except TimeoutError:
                return []
        return []

    async def api_sendMessage(self, params: dict[str, Any]) -> Any:
        chat_id = int(params["chat_id"])
        if chat_id in self.never_opened:
            return _reply({"ok": False, "error_code": 403, "description": NEVER_OPENED})
        if chat_id in self.migrated:
            upgraded = "Bad Request: group chat was upgraded to a supergroup chat"
            moved = {"migrate_to_chat_id": self.migrated[chat_id]}
            return _reply(
                {"ok": False, "error_code": 400, "description": upgraded, "parameters": moved}
            )
        return self._store(chat_id, params)

    async def api_getChatMember(self, params: dict[str, Any]) -> dict[str, Any]:
        user_id = int(params["user_id"])
        member = {"id": user_id, "is_bot": False, "first_name": "Member"}
        if user_id in self.admins:
            return {"status": "creator", "user": member, "is_anonymous": False}
        return {"status": "member", "user": member}

    async def api_sendDocument(self, params: dict[str, Any]) -> Any:
        chat_id = int(params["chat_id"])
        if chat_id in self.never_opened:
            return _reply({"ok": False, "error_code": 403, "description": "Forbidden"})
        return self._store(chat_id, params)

    async def api_sendPhoto(self, params: dict[str, Any]) -> Any:
        chat_id = int(params["chat_id"])
        if chat_id in self.never_opened:
            return _reply({"ok": False, "error_code": 403, "description": NEVER_OPENED})
        message = self._store(chat_id, params)
        message["photo"] = self._photo_sizes()
        _set_caption(message, params.get("caption", ""))
        return telegram_form(message)

    async def api_editMessageMedia(self, params: dict[str, Any]) -> Any:
        message = self.messages.get((int(params["chat_id"]), int(params["message_id"])))
        if message is None:
            return _bad_request(NOT_FOUND)
        message["photo"] = self._photo_sizes()
        _set_caption(message, params["media"].get("caption", ""))
        _set_markup(message, params)
        message["edit_date"] = int(time.time())
        return telegram_form(message)

    async def api_editMessageCaption(self, params: dict[str, Any]) -> Any:
        message = self.messages.get((int(params["chat_id"]), int(params["message_id"])))
        if message is None:
            return _bad_request(NOT_FOUND)
        caption = params.get("caption", "")
        if caption == message.get("caption", "") and params.get("reply_markup") == message.get(
            "reply_markup"
        ):
            self.not_modified += 1
            return _bad_request(NOT_MODIFIED)
        _set_caption(message, caption)
        _set_markup(message, params)
        message["edit_date"] = int(time.time())
        return telegram_form(message)

    async def api_editMessageText(self, params: dict[str, Any]) -> Any:
        key = (int(params["chat_id"]), int(params["message_id"]))
        message = self.messages.get(key)
        if message is None:
            return _bad_request(NOT_FOUND)
        if params["text"] == message.get("text") and params.get("reply_markup") == message.get(
            "reply_markup"
        ):  # Telegram refuses an edit that changes nothing
            self.not_modified += 1
            return _bad_request(NOT_MODIFIED)
        message["text"] = params["text"]
        _set_markup(message, params)
        message["edit_date"] = int(time.time())
        return message

    async def api_answerCallbackQuery(self, params: dict[str, Any]) -> bool:
        return True

    async def api_deleteMessage(self, params: dict[str, Any]) -> bool:
        return (
            self.messages.pop((int(params["chat_id"]), int(params["message_id"])), None) is not None
        )

    def _photo_sizes(self) -> list[dict[str, Any]]:
        """An uploaded picture as Telegram describes it (each upload a new file)."""
        self._next_file += 1
        return [
            {
                "file_id": f"p{self._next_file}",
                "file_unique_id": f"u{self._next_file}",
                "width": 10,
                "height": 10,
            }
        ]

    def _store(self, chat_id: int, params: dict[str, Any]) -> dict[str, Any]:
        self._next_message += 1
        message: dict[str, Any] = {
            "message_id": self._next_message,
            "date": int(time.time()),
            "chat": _chat(chat_id),
            "from": {"id": BOT_ID, "is_bot": True, "first_name": "Card host"},
            "text": params.get("text", params.get("caption", "")),
        }
        if "document" in params:
            message["document"] = {"file_id": "f1", "file_unique_id": "u1",
                                   "file_name": params["document"]["filename"]}  # fmt: skip
            message["document_body"] = params["document"]["body"]
        if "reply_markup" in params:
            message["reply_markup"] = params["reply_markup"]
        if params.get("message_thread_id"):
            message["message_thread_id"] = int(params["message_thread_id"])
            message["is_topic_message"] = True
        self.messages[(chat_id, self._next_message)] = message
        return message

    # ----------------------------------------------------------------- a test's side

    def push(self, update: dict[str, Any]) -> int:
        update["update_id"] = next(UPDATE_IDS)
        self.pushed_at[update["update_id"]] = time.monotonic()
        self.updates.append(update)
        self._new_update.set()
        return update["update_id"]

    def redeliver(self, update: dict[str, Any]) -> int:
        """Offer an update again with its own id, as Telegram does with a batch a bot fetched
        but never confirmed (it was killed) or a webhook post it got no timely answer for."""
        self.updates.append(copy.deepcopy(update))
        self._new_update.set()
        return int(update["update_id"])

    def calls_to(self, method: str, **where: Any) -> list[Call]:
        return [
            c
            for c in self.calls
            if c.method == method and all(str(c.params.get(k)) == str(v) for k, v in where.items())
        ]

    def chat_messages(self, chat_id: int) -> list[dict[str, Any]]:
        return [m for (c, _), m in sorted(self.messages.items()) if c == chat_id]


def user(user_id: int, name: str, lang: str = "zh-hans") -> dict[str, Any]:
    return {"id": user_id, "is_bot": False, "first_name": name, "language_code": lang}


BASIC_GROUPS: set[int] = set()
"""Chat ids a test treats as basic (not super) groups."""


def _chat(chat_id: int) -> dict[str, Any]:
    if chat_id > 0:
        return {"id": chat_id, "type": "private", "first_name": "Player"}
    if chat_id in BASIC_GROUPS:
        return {"id": chat_id, "type": "group", "title": "Small room"}
    return {"id": chat_id, "type": "supergroup", "title": "Card room", "is_forum": True}


def text_update(
    sender: dict[str, Any], chat_id: int, text: str, thread: int | None = None
) -> dict[str, Any]:
    message: dict[str, Any] = {
        "message_id": int(time.time() * 1000) % 1_000_000_000,
        "date": int(time.time()),
        "chat": _chat(chat_id),
        "from": sender,
        "text": text,
    }
    if text.startswith("/"):
        message["entities"] = [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}]
    if thread is not None:
        message["message_thread_id"] = thread
        message["is_topic_message"] = True
    return {"message": message}


def migration_update(sender: dict[str, Any], old: int, new: int) -> dict[str, Any]:
    """The service message Telegram posts in a group that became the supergroup ``new``."""
    return {
        "message": {
            "message_id": 1,
            "date": int(time.time()),
            "chat": _chat(old),
            "from": sender,
            "migrate_to_chat_id": new,
        }
    }


def my_membership_update(chat_id: int, status: str, by: dict[str, Any]) -> dict[str, Any]:
    """The bot's own membership in a chat changed (``kicked``, ``left``, ``member`` …)."""
    bot = {"id": BOT_ID, "is_bot": True, "first_name": "Card host", "username": BOT_USERNAME}
    old = {"status": "member", "user": bot}
    new: dict[str, Any] = {"status": status, "user": bot}
    if status == "kicked":
        new["until_date"] = 0
    return {
        "my_chat_member": {
            "chat": _chat(chat_id),
            "from": by,
            "date": int(time.time()),
            "old_chat_member": old,
            "new_chat_member": new,
        }
    }


def private_message(chat_id: int) -> dict[str, Any]:
    """Some message in a chat, as a forged press could claim to come from."""
    sender = {"id": BOT_ID, "is_bot": True, "first_name": "Card host"}
    return {"message_id": 1, "date": int(time.time()), "chat": _chat(chat_id),
            "from": sender, "text": "hi"}  # fmt: skip


def callback_update(
    sender: dict[str, Any], message: dict[str, Any], data: str, query_id: str
) -> dict[str, Any]:
    shown = telegram_form(message)
    return {
        "callback_query": {
            "id": query_id,
            "from": sender,
            "message": shown,
            "chat_instance": "ci",
            "data": data,
        }
    }


async def _params(request: web.Request) -> dict[str, Any]:
    if request.content_type == "application/json":
        raw: dict[str, Any] = await request.json()
    else:
        form = await request.post()
        raw = {}
        for key, value in form.items():
            if isinstance(value, web.FileField):
                data = value.file.read()
                raw[key] = {"filename": value.filename, "body": _text_or_empty(data),
                            "data": data}  # fmt: skip
            else:
                raw[key] = value
    params: dict[str, Any] = {}
    for key, value in raw.items():
        if key in ("reply_markup", "allowed_updates", "commands", "media") and isinstance(
            value, str
        ):
            value = json.loads(value)
        params[key] = value
    return params


def _text_or_empty(data: bytes) -> str:
    try:
        return data.decode()
    except UnicodeDecodeError:
        return ""  # a picture: its bytes are in "data"


def attached_png(params: dict[str, Any], field: str = "photo") -> Any:
    """The uploaded picture of a call, opened with Pillow (which checks it is a PNG)."""
    from io import BytesIO

    from PIL import Image

    value = params[field]
    if isinstance(value, dict) and "media" in value:  # editMessageMedia's InputMediaPhoto
        value = value["media"]
    if isinstance(value, str) and value.startswith("attach://"):
        value = params[value.removeprefix("attach://")]
    image = Image.open(BytesIO(value["data"]))
    image.load()
    assert image.format == "PNG", image.format
    return image


def telegram_form(message: dict[str, Any]) -> dict[str, Any]:
    """A kept message as Telegram shows it: without the fake's own fields, and a photo with
    its caption only (no ``text``)."""
    shown = {k: v for k, v in message.items() if k != "document_body"}
    if "photo" in shown:
        shown.pop("text", None)
    return shown


def _set_caption(message: dict[str, Any], caption: str) -> None:
    message["text"] = caption
    if caption:
        message["caption"] = caption
    else:
        message.pop("caption", None)


def _set_markup(message: dict[str, Any], params: dict[str, Any]) -> None:
    """An edit without a keyboard removes the message's keyboard, as Telegram does."""
    if "reply_markup" in params:
        message["reply_markup"] = params["reply_markup"]
    else:
        message.pop("reply_markup", None)


def _bad_request(description: str) -> web.Response:
    return _reply({"ok": False, "error_code": 400, "description": description})


def _reply(payload: dict[str, Any]) -> web.Response:
    status = int(payload.get("error_code", 200))  # Telegram answers errors with their status
    return web.Response(text=json.dumps(payload), status=status, content_type="application/json")
