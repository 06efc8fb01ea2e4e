"""Issue 49, item 4 (7 "message is not modified" 400s in one run) through python-telegram-bot
against the fake Bot API, which refuses an edit that changes nothing as Telegram does: the
outbox never sends an edit identical to what the message shows."""

from __future__ import annotations

from bot.views.outgoing import Button, Kind, Outgoing
from tests.telegram.world import TelegramWorld
from tests.waiting import eventually

HAND = Button("My hand", "/hand", "t1.1")


def state(chat: str, text: str) -> Outgoing:
    return Outgoing(Kind.TABLE, chat, text, buttons=((HAND,),), slot="table t1.1")


async def test_an_edit_that_changes_nothing_is_not_sent(tmp_path):
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"))
    outbox = world.adapter.outbox
    chat = world.key()

    async def shown(text: str) -> None:
        outbox.pace(state(chat, text))
        await eventually(lambda: outbox.paced_out() and outbox.idle(), 10.0, 0.01, "sent")

    try:
        await shown("Turn: Ann")
        await shown("Turn: Bob")
        await shown("Turn: Bob")  # the same again (a timer's step that changed nothing)
        await shown("Turn: Bob")
        await shown("Turn: Cai")
        edits = world.api.calls_to("editMessageText")
        assert [c.params["text"] for c in edits] == ["Turn: Bob", "Turn: Cai"]
        assert world.api.not_modified == 0
    finally:
        await world.close()
