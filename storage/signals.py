"""Signals between the bot processes sharing one database: PostgreSQL's ``LISTEN``/``NOTIFY``
(no broker of its own). A signal is a channel's name and a short text payload (under 8,000
bytes); it reaches every process listening on that channel, at most once, in the order sent.

A step's signal is sent inside the step's own transaction (`storage.base.Transaction.tell`),
so it is delivered when the step commits and never for a step rolled back. A listener whose
connection was lost and made again is told `MISSED` (it may have missed signals meanwhile:
whatever it follows must be read again from the store).

On SQLite there is one process and nothing to signal: `storage.base.Database.signals` is None.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable

STEPS = "cardbot_steps"
"""A table's step was stored: ``{"table": chat, "step": moves}`` (`bot.hosting.keeping`)."""
MISSED = ""
"""The payload a listener is told after its connection was made again."""
Heard = Callable[[str], None]
"""Told each payload of a channel as it arrives (must not block; may start a task)."""


class Signals(ABC):
    """The signals of a `storage.base.Database` shared by several processes."""

    @abstractmethod
    async def listen(self, channel: str, heard: Heard) -> None:
        """From now on ``heard`` is told every payload sent on ``channel``."""

    @abstractmethod
    async def send(self, channel: str, payload: str) -> None:
        """Send ``payload`` on ``channel`` now (outside any step)."""

    @abstractmethod
    async def close(self) -> None:
        """Stop listening (before the database closes)."""
