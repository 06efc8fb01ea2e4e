"""The tricks or rounds a hand has closed, and how many of them the group has seen."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Note = Callable[[str], str]
"""A line said once with a table state, written for a reader of a language (each player of a
quick table reads it in their own: `bot.views.outgoing.Outgoing.said`)."""


class Closings:
    """The tricks or rounds closed in this hand (the games' closing events, in order), and
    how many of them a table state sent to the group has covered. The group is sent only the
    latest table state (`adapters.pacing`): when two tricks close within one slot — AI
    players alone after the people are out — the state showing the first is never sent, so
    the next one sent lists it as an earlier trick."""

    def __init__(self) -> None:
        self.events: list[Any] = []
        self.shown = 0
        self.notes: list[Note] = []
        """Lines said once with the table state that follows them (a time-out): part of that
        one table message, never a post that would stay above the table as its header."""
        self.notes_shown = 0

    def note(self, line: Note) -> None:
        self.notes.append(line)

    def unshown_notes(self, upto: int) -> list[Note]:
        """The notes up to ``upto`` that no state sent so far has said; from now on they
        count as said."""
        lines = self.notes[self.notes_shown : upto]
        self.notes_shown = max(self.notes_shown, upto)
        return lines

    def add(self, event: Any) -> None:
        self.events.append(event)

    def unshown(self, upto: int) -> list[Any]:
        """The closings up to ``upto`` that no state sent so far has covered; from now on
        they count as shown."""
        earlier = self.events[self.shown : upto]
        self.shown = max(self.shown, upto)
        return earlier
