"""Neutral outgoing messages: what the host wants said, before any platform's API."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Button:
    """A neutral button: its label, the command a press sends, and the stamp (table, hand,
    turn) the press must still match (`bot.controls.Stamp`)."""

    label: str
    command: str
    stamp: str


@dataclass(frozen=True)
class Outgoing:
    """One message. ``kind``: ``group`` (a new group post), ``table`` (the per-hand table
    message, edited in place), ``private`` (to ``user`` only), ``reply`` (an answer to the
    user who sent the command: privately where the platform allows)."""

    kind: str
    chat: str
    text: str
    user: str | None = None
    buttons: tuple[tuple[Button, ...], ...] = field(default=())
    """Rows of buttons under the message."""
    slot: str | None = None
    """A private message edited in place rather than sent anew (``hand``: the hand view)."""
