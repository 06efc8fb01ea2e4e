"""Neutral outgoing messages: what the host wants said, before any platform's API."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Button:
    """A neutral button: its label and the command it sends (with the table's stamp)."""

    label: str
    command: str


@dataclass(frozen=True)
class Outgoing:
    """One message. ``kind``: ``group`` (a new group post), ``table`` (the per-hand table
    message, edited in place), ``private`` (to ``user`` only), ``reply`` (an answer to the
    user who sent the command: privately where the platform allows)."""

    kind: str
    chat: str
    text: str
    user: str | None = None
    buttons: tuple[Button, ...] = field(default=())
