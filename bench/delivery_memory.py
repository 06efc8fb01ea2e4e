"""Memory over every chat ever seen (issue 51, item 7): N groups each open a table and stop it,
through real python-telegram-bot against the fake Bot API of the tests (127.0.0.1 only).

Run: ``python bench/delivery_memory.py [--chats 5000] [--warm-up 500]``

Prints the process's RSS (``/proc/self/status``) after a warm-up (500 chats: the caches a
long-running bot has full — SQLite's pages, the library's 512 group limiters), after the N
chats once every send has drained, and again once the outbox has had a budget window (60 s
of pacing time: 2 s here, pacing runs 30x faster) to forget the stopped chats; with what the
outbox keeps per chat each time (pacers, call budgets, conversations, message ids edited in
place). The fake Bot API's records of calls, messages and updates (it runs in this process)
are let go every 100 chats: Telegram's memory, not the bot's. The host's own per-chat state
(tables, locks) is the host's: it forgets closed tables itself (`bench/forget_tables.py`).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.telegram.world import GROUP, PACE_SPEED, TelegramWorld


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def kept(outbox: Any) -> dict[str, int]:
    return {"pacers": len(outbox._pacers), "budgets": len(outbox._budgets),
            "conversations": len(outbox.conversations), "slots": len(outbox._slots)}  # fmt: skip


async def drained(world: TelegramWorld) -> None:
    outbox = world.adapter.outbox
    while not (outbox.paced_out() and outbox.idle()):
        await asyncio.sleep(0.05)


async def open_and_stop(world: TelegramWorld, first: int, count: int) -> None:
    for number in range(first, first + count):
        chat = GROUP - 1 - number
        await world.say(11, "/new situan", chat_id=chat)
        await world.say(11, "/stop", chat_id=chat)
        if number % 100 == 99:
            forget_the_fakes_records(world)


def forget_the_fakes_records(world: TelegramWorld) -> None:
    """The fake Bot API runs in this process and keeps every call, message and update (for
    the tests to read): that is Telegram's memory, not the bot's, so it is let go."""
    api = world.api
    api.calls.clear()
    api.messages.clear()
    api.updates = [u for u in api.updates if u["update_id"] > api.delivered]
    api.pushed_at.clear()
    world.handled.clear()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chats", type=int, default=5000)
    parser.add_argument("--warm-up", type=int, default=500)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        world = await TelegramWorld.open(f"{folder}/memory.sqlite3")
        outbox = world.adapter.outbox
        try:
            await world.say(11, "/start", chat_id=11)
            await open_and_stop(world, 0, args.warm_up)
            await drained(world)
            await asyncio.sleep(2 * 60 / PACE_SPEED)
            forget_the_fakes_records(world)
            gc.collect()
            start = rss_mb()
            print(f"after {args.warm_up} chats (warm-up): RSS {start:.1f} MB, kept {kept(outbox)}")
            await open_and_stop(world, args.warm_up, args.chats)
            await drained(world)
            forget_the_fakes_records(world)
            gc.collect()
            print(
                f"after {args.chats} more chats opened and stopped, sends drained: RSS "
                f"{rss_mb():.1f} MB, kept {kept(outbox)}"
            )
            await asyncio.sleep(2 * 60 / PACE_SPEED)
            gc.collect()
            end = rss_mb()
            print(
                f"one budget window later: RSS {end:.1f} MB ({100 * (end - start) / start:+.1f}%"
                f" of the warm-up figure), kept {kept(outbox)}"
            )
        finally:
            await world.close()


if __name__ == "__main__":
    asyncio.run(main())
