"""Where an adapter remembers a message it edits in place (`adapters.delivery`)."""

from __future__ import annotations

from bot.community.quick_seating import QUICK_NARRATION
from bot.views.outgoing import Outgoing

SlotPlace = tuple[str, str, str, bool]
"""Where a slotted message is remembered: its conversation, chat, kind, and whether it is a
quick table's narration (`slot_place`)."""


def slot_place(key: str, message: Outgoing) -> SlotPlace:
    """One message is edited in place per conversation, chat and kind: a new slot there is a
    new message. A quick table's narration (slot ``quick <chat> <trick>``) and its player's
    hand are both private messages of one chat, so they are kept apart: each is edited in
    place, neither makes the other one new (they would each be sent anew at every turn, the
    old ones left with their buttons)."""
    quick = (message.slot or "").startswith(QUICK_NARRATION)
    return (key, message.chat, message.kind, quick)
