"""What a table has sent, kept in memory so that nothing is sent twice and no button of a past
phase stays live: the last turn notice, the table message's buttons and slot, each seat's last
private view, and the group post whose buttons belong to the phase now. Nothing here is stored:
after a restart everything is sent afresh and there is no old button to take off."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.views.outgoing import Button, Outgoing

Chrome = tuple[object, tuple[tuple[Button, ...], ...], str]
"""The table message's stamp, buttons and slot for the current hand (they do not change)."""


class WhatWasShown:
    def __init__(self) -> None:
        self.notified: tuple[int, int, int] | None = None
        """The (hand, turn, seat) whose turn notice was sent last."""
        self.table_chrome: Chrome = ((), (), "")
        self.private_views: dict[int, tuple[str, Any]] = {}
        """The private hand view last sent to each seat (text and buttons), so that an
        unchanged one is not sent again."""
        self.buttoned: Outgoing | None = None
        """The group post whose buttons belong to the phase now (the lobby's, a settlement's
        Ready, the pause's Continue): they are taken off when the phase ends
        (`retire_buttons`), so that no button of a past phase stays live."""

    def note_turn_notice(self, key: tuple[int, int, int]) -> bool:
        """Whether the notice of this (hand, turn, seat) is still to be sent; from now on
        it counts as sent."""
        if self.notified == key:
            return False
        self.notified = key
        return True

    def keep_chrome(self, chrome: Chrome) -> None:
        self.table_chrome = chrome

    def note_shown(self, seat: int, shown: tuple[str, Any]) -> bool:
        """Whether this private view differs from the one the seat was last sent; from now
        on it is the one sent."""
        if self.private_views.get(seat) == shown:
            return False
        self.private_views[seat] = shown
        return True

    def forget_shown(self, seat: int) -> None:
        self.private_views.pop(seat, None)

    def forget_every_view(self) -> None:
        """A new hand: every seat's private view is sent afresh."""
        self.private_views.clear()

    def with_buttons_of_the_phase(self, post: Outgoing, slot: str) -> Outgoing:
        """``post`` (a group post with buttons) as this phase's, in a ``slot`` of its own (one
        per match, hand and kind of post), so that the platform can edit its buttons off in
        place when the phase ends."""
        slotted = replace(post, slot=slot)
        self.buttoned = slotted
        return slotted

    def now_with_buttons(self, post: Outgoing) -> None:
        """The phase's post was rewritten before it was sent (a line joined it)."""
        self.buttoned = post

    def retire_buttons(self) -> list[Outgoing]:
        """The post of the phase that ended, as it is, without its buttons (an edit in
        place); nothing if there is none."""
        post, self.buttoned = self.buttoned, None
        return [] if post is None else [replace(post, buttons=())]
