"""Neutral buttons as Telegram inline keyboards, and presses back as text commands.

A button's ``callback_data`` is ``<chat>|<stamp>|<command>`` — the table's chat (so a press in
a private chat reaches the right table; a quick table's is written whole, ``q:…``), the
button's stamp (table, hand, turn) and the text command — within Telegram's 64 bytes. Nothing
in it is trusted: the host checks the stamp, the seat and the rules like for any typed command.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from bot.community.quick_seating import is_quick
from bot.views.outgoing import Button

CALLBACK_LIMIT = 64
PREFIX = "tg:"


def chat_key(chat_id: int, thread: int | None = None) -> str:
    """The host's name for a Telegram chat: one table per group, or per forum topic."""
    return f"{PREFIX}{chat_id}" + (f":{thread}" if thread is not None else "")


def user_key(user_id: int) -> str:
    return f"{PREFIX}u{user_id}"


def user_id_of(key: str) -> int:
    return int(key.removeprefix(PREFIX + "u"))


def chat_target(key: str) -> tuple[int, int | None]:
    """``tg:-100123:7`` → (chat id, topic id)."""
    chat, _, thread = key.removeprefix(PREFIX).partition(":")
    return int(chat), int(thread) if thread else None


def is_group(chat: str) -> bool:
    """A group's chat (not a private chat, not a quick table's, which has no group)."""
    return not is_quick(chat) and chat_target(chat)[0] < 0


def callback_data(chat: str, button: Button) -> str:
    data = f"{chat.removeprefix(PREFIX)}|{button.stamp}|{button.command}"
    if len(data.encode()) > CALLBACK_LIMIT:
        raise ValueError(f"callback data over {CALLBACK_LIMIT} bytes: {data!r}")
    return data


@dataclass(frozen=True)
class Press:
    chat: str
    stamp: str
    command: str


def read_callback(data: str | None) -> Press | None:
    """A press's chat, stamp and command; None for data this bot did not write."""
    parts = (data or "").split("|")
    if len(parts) != 3 or not parts[2].startswith("/"):
        return None
    chat, stamp, command = parts
    if is_quick(chat):  # a quick table's controls, in a private chat: no Telegram chat's
        return Press(chat, stamp, command)
    try:
        chat_target(PREFIX + chat)
    except ValueError:
        return None
    return Press(PREFIX + chat, stamp, command)


def inline_keyboard(chat: str, rows: tuple[tuple[Button, ...], ...]) -> InlineKeyboardMarkup | None:
    if not rows:
        return None
    return InlineKeyboardMarkup([[_inline_button(chat, b) for b in row] for row in rows])


def _inline_button(chat: str, button: Button) -> InlineKeyboardButton:
    if button.url is not None and button.opens_app:
        return InlineKeyboardButton(button.label, web_app=WebAppInfo(button.url))
    if button.url is not None:
        return InlineKeyboardButton(button.label, url=button.url)
    return InlineKeyboardButton(
        button.label, callback_data=callback_data(button.chat or chat, button)
    )


def start_payload(chat: str) -> str:
    """A deep-link payload naming the table's chat (``?start=`` allows A-Z a-z 0-9 _ -)."""
    return base64.urlsafe_b64encode(chat.removeprefix(PREFIX).encode()).decode().rstrip("=")


def read_start_payload(payload: str) -> str | None:
    try:
        raw = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)).decode()
        chat_target(PREFIX + raw)
    except (ValueError, binascii.Error, UnicodeDecodeError):
        return None
    return PREFIX + raw
