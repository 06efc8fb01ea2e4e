"""Issue 41, item 2, at the real library: every message call python-telegram-bot makes waits
its turn in the bot-wide send budget under the priority of the message being delivered —
a private message as a person's, a group post as a table's."""

from __future__ import annotations

import pytest

from adapters.send_budget import Priority
from adapters.startup import StartupError
from adapters.telegram.request import GROUP_CALLS
from bot.ops.config import load
from tests.telegram.world import GROUP, TelegramWorld
from tests.waiting import eventually


async def test_every_message_call_passes_the_bot_wide_budget_by_priority(tmp_path):
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"))
    try:
        budget = world.adapter.outbox.send_budget
        assert budget is not None and budget.rate == 30.0
        await world.say(11, "/start", chat_id=11)  # the greeting: a private message
        private = sum(budget.granted.values())
        assert budget.granted[Priority.PERSON] == private >= 1
        await world.say(11, "/new situan")  # the lobby: a group post, paced
        outbox = world.adapter.outbox
        # settle() waits for the queues only; the post waits in the group's pacer first
        await eventually(lambda: outbox.paced_out() and outbox.idle(), 10.0, 0.002, "the post")
        made = [c for c in world.api.calls if c.method in GROUP_CALLS]
        assert budget.granted[Priority.TABLE] >= 1
        assert sum(budget.granted.values()) == len(made)
        groups = [c for c in made if str(c.params.get("chat_id")) == str(GROUP)]
        assert len(groups) == budget.granted[Priority.TABLE] + budget.granted[Priority.OTHER]
    finally:
        await world.close()


def test_telegram_calls_per_second_is_read_and_checked():
    assert load({})["TELEGRAM_CALLS_PER_SECOND"] == 30.0
    assert load({"TELEGRAM_CALLS_PER_SECOND": "12.5"})["TELEGRAM_CALLS_PER_SECOND"] == 12.5
    for bad in ("0", "fast", "5000", "nan"):
        with pytest.raises(StartupError, match=r"TELEGRAM_CALLS_PER_SECOND=.*1 to 1000"):
            load({"TELEGRAM_CALLS_PER_SECOND": bad})
