"""Issue 51, item 7 through python-telegram-bot against the fake Bot API: what the outbox keeps
per chat (its pacer, its call budget, its conversation, the ids of the messages it edits) is
dropped with the table — chats opened and stopped leave nothing behind once their sends have
drained, and a group that still has a table keeps its own."""

from __future__ import annotations

from typing import Any

from adapters.telegram.keyboards import chat_key
from tests.telegram.world import GROUP, TelegramWorld
from tests.waiting import eventually

ANN = 11
CHATS = 120


async def test_chats_opened_and_stopped_leave_no_delivery_state(tmp_path):
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"))
    outbox = world.adapter.outbox
    try:
        await world.say(ANN, "/start", chat_id=ANN)
        await world.say(ANN, "/new situan")  # this group keeps its table throughout
        for number in range(CHATS):
            chat = GROUP - 1 - number
            await world.say(ANN, "/new situan", chat_id=chat)
            assert chat_key(chat) in outbox._pacers  # its lobby post was paced: state kept
            await world.say(ANN, "/stop", chat_id=chat)
            assert world.manager.tables.get(world.key()) is not None
        assert len(world.manager.tables) == 1

        def only_the_open_table() -> bool:
            # The open table's lobby post keeps its slot (its buttons are edited off when
            # the match starts); a stopped chat keeps none.
            slots_of_others = [slot for slot in outbox._slots if slot[0] != world.key()]
            expected = {"pacers": 1, "budgets": 1, "conversations": 0, "slots": 1, "captions": 0}
            return outbox.paced_out() and not slots_of_others and kept(outbox) == expected

        # Pacing runs 30x faster here: a budget window (60 s) is 2 s of the wall clock.
        await eventually(only_the_open_table, 30.0, 0.05, "the stopped chats forgotten")
        assert list(outbox._pacers) == [world.key()]
        # The open table's group goes on as before: its next post is paced and sent.
        sent = len(world.group_calls())
        await world.say(ANN, "/addbot")
        await eventually(lambda: len(world.group_calls()) > sent, 10.0, 0.01, "a post")
    finally:
        await world.close()


def kept(outbox: Any) -> dict[str, int]:
    """What the outbox keeps per chat (read from its fields: the same on the old code)."""
    return {"pacers": len(outbox._pacers), "budgets": len(outbox._budgets),
            "conversations": len(outbox.conversations), "slots": len(outbox._slots),
            "captions": len(outbox._captions)}  # fmt: skip
