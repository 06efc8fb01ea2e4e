"""What a practice table (``/settings practice_mode on|timed``, `/practice`, the console's
``--practice``) changes, read from a table's options: hints without limit, no time limit on a
person's turn (``on``; ``timed`` keeps it), a lesson beside each refusal
(`bot.refusal_lessons`), and its hands kept out of /stats, /top and the records (they are
stored as any hand is, for a restart and for replay, but no ledger line is written)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.hint_book import UNLIMITED


def practising(options: Mapping[str, Any]) -> bool:
    return str(options.get("practice_mode", "off")) != "off"


def untimed(options: Mapping[str, Any]) -> bool:
    """A person's turn waits for them, however long (a practice table not asked for time)."""
    return str(options.get("practice_mode", "off")) == "on"


def hints_allowed(options: Mapping[str, Any]) -> int:
    """Hints a player may ask for in a hand (`bot.hint_book.UNLIMITED`: no limit)."""
    if practising(options):
        return UNLIMITED
    allowed = options.get("hints_per_hand", 0)
    return UNLIMITED if allowed in (UNLIMITED, "unlimited") else int(allowed)
