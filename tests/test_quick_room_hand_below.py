"""A quick table's private chat gets one message a trick (issue 54): through the real
python-telegram-bot and discord.py against the fake servers, whenever the turn comes to a
person, their hand — whose buttons play — is below every trick's message but the live one,
not many messages up; it is moved only then, and no other copy of it is left behind."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from tests.bot.harness import FakeClock
from tests.discord.world import DiscordWorld
from tests.quick_worlds import quick_table_of, telegram_beside
from tests.telegram.fake_bot_api import FakeBotAPI, text_update, user
from tests.waiting import eventually

ANN = user(11, "Ann", "en")  # Telegram, in English
BOB = "22"  # Discord, zh-CN
TURNS = 8
"""Turns each person plays before going on auto-play."""
HAND = re.compile(r"(?:Your hand|你的手牌)[^:：]*[:：]\s*([^\s×]+)")


def telegram_chat(api: FakeBotAPI) -> list[str]:
    return [m.get("text") or m.get("caption") or "" for m in api.chat_messages(11)]


def discord_chat(world: DiscordWorld) -> list[str]:
    dm = world.fake.dm_channels[BOB]
    found = world.fake.channel_messages(dm)
    return [m.get("content") or "" for m in sorted(found, key=lambda m: int(m["id"]))]


def tricks_below_the_hand(chat: list[str], table_line: str, hand_line: str) -> int:
    (hand,) = [i for i, text in enumerate(chat) if hand_line in text]  # one hand, no copy
    return sum(table_line in text for text in chat[hand + 1 :])


async def test_at_each_turn_the_hand_is_below_all_but_the_live_trick(tmp_path: Path):
    clock = FakeClock(2_000_000.0)
    world = await DiscordWorld.open(str(tmp_path / "below.sqlite3"), seed=3, clock=clock)
    api, telegram = await telegram_beside(world, "en")
    try:
        api.push(text_update(ANN, 11, "/quick situan"))
        await world.slash(BOB, "quick", channel_id=None, what="situan")
        table = await quick_table_of(world, clock, "tg:u11", "dc:u22")
        turns: dict[str, list[int]] = {"tg:u11": [], "dc:u22": []}
        for _ in range(20_000):
            if not table.is_open() or all(len(t) >= TURNS for t in turns.values()):
                break
            seat = table.turn_seat
            occupant = None if seat is None else table.seats[seat]
            if occupant is None or occupant.ai or table.hand.auto[seat]:
                if table.deadline is not None:
                    clock.now = max(clock.now, table.deadline)
                await asyncio.sleep(0.01)
                continue
            who = occupant.user
            # Told: the call to act reached them (the outboxes have sent what they hold).
            await eventually(telegram.outbox.idle, 10.0, 0.002, "an idle Telegram outbox")
            await world.settle()
            chat_now = telegram_chat(api) if who == "tg:u11" else discord_chat(world)
            if who == "tg:u11":
                turns[who].append(tricks_below_the_hand(chat_now, "Situan · hand 1", "Your hand"))
            else:
                turns[who].append(tricks_below_the_hand(chat_now, "四团 · 第 1 局", "你的手牌"))
            before = table.turn_count
            lowest = [m.group(1) for t in chat_now if (m := HAND.search(t))][-1]
            moves = ["/auto on"] if len(turns[who]) >= TURNS else ["/pass", f"/play {lowest}"]
            for move in moves:
                await act(api, world, who, move)
                try:
                    await eventually(
                        lambda b=before, s=seat: table.turn_count > b or table.hand.auto[s], 3.0
                    )
                    break
                except AssertionError:
                    continue  # /pass refused (a lead): the lowest card then
        assert all(len(t) >= 3 for t in turns.values()), turns
        # At each turn the hand is under every trick's message but perhaps the live one.
        assert all(below <= 1 for t in turns.values() for below in t), turns
    finally:
        await telegram.stop()
        await api.stop()
        await world.close()


async def act(api: FakeBotAPI, world: DiscordWorld, who: str, move: str) -> None:
    if who == "tg:u11":
        api.push(text_update(ANN, 11, move))
        return
    name, _, rest = move.removeprefix("/").partition(" ")
    options: dict[str, Any] = {"cards": rest} if name == "play" else {}
    if name == "auto":
        options = {"on": "on"}
    await world.slash(BOB, name, channel_id=None, **options)
