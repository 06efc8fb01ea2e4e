"""Issue 51, item 5 through python-telegram-bot against the fake Bot API: a flood of web
page opens by a watcher (each asks whether they are in the group: ``getChatMember``) costs
one or two calls, and the group's own answers never wait behind them — with the group's
budget at its real pace (20 messages a minute, pacing at the wall clock's speed)."""

from __future__ import annotations

import asyncio
import time

from tests.telegram.fake_bot_api import text_update, user
from tests.telegram.world import GROUP, TelegramWorld
from tests.waiting import eventually

ANN = 11
WATCHER = "tg:u501"
OPENS = 40


async def test_forty_opens_cost_at_most_two_calls_and_never_delay_the_group(tmp_path):
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"), pace_speed=1.0)
    adapter, api = world.adapter, world.api
    opens: list[asyncio.Task[bool]] = []
    try:
        await world.say(ANN, "/start", chat_id=ANN)
        chat = world.key()
        opens = [asyncio.create_task(adapter.is_member(chat, WATCHER)) for _ in range(OPENS)]
        await asyncio.sleep(0)  # the opens are under way: now the group asks something
        asked = time.monotonic()
        api.push(text_update(user(ANN, "Ann"), GROUP, "/new situan"))
        await eventually(
            lambda: api.calls_to("sendMessage", chat_id=GROUP), 15.0, 0.005, "the group's answer"
        )
        answered = api.calls_to("sendMessage", chat_id=GROUP)[0].at - asked
        assert all(await asyncio.gather(*opens))  # every open let in: a member
        # A sustained flood: the answer is remembered for a few minutes.
        again = [asyncio.create_task(adapter.is_member(chat, WATCHER)) for _ in range(OPENS)]
        assert all(await asyncio.gather(*again))
        calls = len(api.calls_to("getChatMember"))
        assert calls <= 2, calls
        assert answered <= 2.0, answered
    finally:
        for task in opens:
            task.cancel()
        await world.close()
