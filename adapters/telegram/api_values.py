"""Values as the Bot API takes and gives them: a text's length in UTF-16 code units (as Telegram
counts its limits), reply markup as the JSON it compares, a retry's seconds, and whether a message
carries a button to a page of the web table."""

from __future__ import annotations

from typing import Any

from bot.views.outgoing import Outgoing


def markup_json(markup: Any) -> str | None:
    return None if markup is None else str(markup.to_json())


def retry_seconds(value: object) -> float:
    total = getattr(value, "total_seconds", None)
    return float(total()) if callable(total) else float(value)  # type: ignore[arg-type]


def utf16_length(text: str) -> int:
    """Telegram counts entity offsets in UTF-16 code units (an emoji may count two)."""
    return len(text.encode("utf-16-le")) // 2


def has_page(message: Outgoing) -> bool:
    """Whether the message carries one of the bot's relative page links (`_pages_of_table`)."""
    return any(b.url and b.url.startswith("/") for row in message.buttons for b in row)
