"""Web watchers' membership checks and shutting down (issue 51, items 5 and 6), through real
python-telegram-bot against the fake Bot API of the tests (127.0.0.1 only), the group's
budget at its real pace (pacing at the wall clock's speed).

Run: ``python bench/watchers_shutdown.py``

Prints: for 40 page opens by one member at once, the getChatMember calls made and how long
the group's answer to a command sent meanwhile took; then, with 60 group posts, 300 private
messages and 40 membership checks queued, how long stopping the adapter took and when the
last membership check under way ended (a web request waits on it).
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.views.outgoing import Kind, Outgoing
from tests.telegram.fake_bot_api import text_update, user
from tests.telegram.world import GROUP, TelegramWorld
from tests.waiting import eventually

OPENS = 40


async def watchers(folder: str) -> None:
    world = await TelegramWorld.open(f"{folder}/watchers.sqlite3", pace_speed=1.0)
    adapter, api = world.adapter, world.api
    try:
        await world.say(11, "/start", chat_id=11)
        chat = world.key()
        opens = [asyncio.create_task(adapter.is_member(chat, "tg:u501")) for _ in range(OPENS)]
        await asyncio.sleep(0)
        asked = time.monotonic()
        api.push(text_update(user(11, "Ann"), GROUP, "/new situan"))
        await eventually(
            lambda: api.calls_to("sendMessage", chat_id=GROUP), 120.0, 0.01, "the group's answer"
        )
        answered = api.calls_to("sendMessage", chat_id=GROUP)[0].at - asked
        let_in = sum(await asyncio.gather(*opens))
        calls = len(api.calls_to("getChatMember"))
        print(
            f"{OPENS} opens by one member: {calls} getChatMember calls, {let_in} let in; "
            f"the group's answer meanwhile after {answered:.2f} s"
        )
    finally:
        await world.close()


async def shutdown(folder: str) -> None:
    world = await TelegramWorld.open(f"{folder}/shutdown.sqlite3", pace_speed=1.0)
    adapter, outbox = world.adapter, world.adapter.outbox
    chat = world.key()
    for number in range(60):
        outbox.pace(Outgoing(Kind.GROUP, chat, f"post {number}", filename=f"{number}.txt"))
    for number in range(300):
        outbox.send_private(f"tg:u{1000 + number}", f"hello {number}")
    opens = [asyncio.create_task(adapter.is_member(chat, f"tg:u{2000 + n}")) for n in range(40)]
    await asyncio.sleep(0.3)
    began = time.monotonic()
    world._stop.set()
    await adapter.stop()
    stopped = time.monotonic() - began
    await asyncio.gather(*opens, return_exceptions=True)
    ended = time.monotonic() - began
    print(
        f"60 group posts, 300 private messages and 40 membership checks queued: the adapter "
        f"stopped after {stopped:.2f} s, the last check ended after {ended:.2f} s"
    )
    if world._timers is not None:
        await world._timers
    await world.api.stop()
    await world.db.close()


async def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        await watchers(folder)
        await shutdown(folder)


if __name__ == "__main__":
    asyncio.run(main())
