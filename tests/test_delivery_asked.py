"""Views overtaken in a conversation's queue (`adapters.delivery`). A hand asked to come anew
at the end of the chat (`Outgoing.asked`: /hand, or a quick table's hand at its player's
turn) keeps that when a newer view of it, queued behind it, is sent in its place. A new
private message is sent in its newest view where it was first queued: what was queued after
it stays below it."""

from __future__ import annotations

import asyncio

from bot.views.outgoing import Kind, Outgoing
from tests.counted_sends import CountedOutbox
from tests.virtual_time import run_virtual


def hand(text: str, asked: bool = False) -> Outgoing:
    return Outgoing(Kind.PRIVATE, "q:1", text, user="tg:u1", slot="hand t1", asked=asked)


def sent_of(*views: Outgoing) -> list[tuple[str, bool]]:
    """What the outbox sends of ``views``, queued one after the other before any goes out."""

    async def main() -> list[tuple[str, bool]]:
        outbox = CountedOutbox(rate=30.0)
        for view in views:
            await outbox(view)
        while not outbox.idle():
            await asyncio.sleep(0.01)
        return [(call.message.text, call.message.asked) for call in outbox.calls]

    return run_virtual(main())


def test_a_newer_view_of_an_asked_hand_is_sent_as_asked():
    assert sent_of(hand("asked", asked=True), hand("newer")) == [("newer", True)]
    assert sent_of(hand("before"), hand("asked", asked=True), hand("newer")) == [("newer", True)]


def test_views_nobody_asked_for_stay_as_they_are():
    assert sent_of(hand("plain"), hand("newer")) == [("newer", False)]


def test_a_new_private_message_keeps_its_place_in_its_newest_view():
    """A quick table's trick message first queued, the hand after it, then a newer view of
    the trick: the trick's message is sent first (newest view), the hand below it."""
    trick = Outgoing(Kind.PRIVATE, "q:1", "trick v1", user="tg:u1", slot="quick q:1 0")
    newer = Outgoing(Kind.PRIVATE, "q:1", "trick v2", user="tg:u1", slot="quick q:1 0")
    assert sent_of(trick, hand("hand"), newer) == [("trick v2", False), ("hand", False)]
