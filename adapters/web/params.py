"""A table's chat as Telegram's ``startapp`` parameter takes it (``[A-Za-z0-9_-]``, at
most 64 characters): its UTF-8 in unpadded URL-safe base64."""

from __future__ import annotations

import base64
import binascii
import re

PARAM_LENGTH = 64
_PARAM = re.compile(r"[A-Za-z0-9_-]{1,64}")


def table_param(chat: str) -> str | None:
    """``chat`` as a ``startapp`` parameter; None when it would be longer than Telegram
    takes (a chat id of over 48 bytes: no Telegram chat's)."""
    param = base64.urlsafe_b64encode(chat.encode()).rstrip(b"=").decode()
    return param if len(param) <= PARAM_LENGTH else None


def chat_of_param(param: str) -> str | None:
    """The chat a ``startapp`` parameter names; None for one this bot did not make."""
    if not _PARAM.fullmatch(param):
        return None
    try:
        chat = base64.urlsafe_b64decode(param + "=" * (-len(param) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    return chat if chat.isprintable() else None
