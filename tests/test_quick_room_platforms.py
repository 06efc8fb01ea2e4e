"""A quick table of three platforms through the real libraries (issue 54): a Telegram player
(python-telegram-bot against the fake Bot API), a Discord player (discord.py against the fake
gateway) and a console player say /quick situan privately, are matched with ``quick_wait 1``
at one table with one AI seat, each is shown only their own hand, privately, on their own
platform and in their own language, and each plays from there to the hand's end; their
ratings move by OpenSkill's own numbers."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from adapters.console import type_line
from adapters.console_printer import HUMAN, ConsolePrinter
from tests.bot.harness import FakeClock
from tests.bot.test_ratings import assert_rated_as_openskill
from tests.discord.fake_discord import CHANNEL_ID
from tests.discord.world import DiscordWorld
from tests.quick_worlds import quick_table_of, telegram_beside
from tests.telegram.fake_bot_api import FakeBotAPI, text_update, user
from tests.waiting import eventually

ANN = user(11, "Ann", "en")  # Telegram, in English
BOB = "22"  # Discord member Bob, whose client is in zh-CN


async def test_telegram_discord_and_console_players_play_one_quick_table(tmp_path: Path):
    clock = FakeClock(2_000_000.0)
    world = await DiscordWorld.open(str(tmp_path / "mixed.sqlite3"), seed=3, clock=clock)
    printed: list[str] = []  # what the console's terminal shows
    console = ConsolePrinter("en", write=printed.append)
    # One manager, three platforms, as adapters/platforms.py wires them.
    api, telegram = await telegram_beside(world, "zh-Hans", **{HUMAN: console})
    manager = world.manager
    try:
        api.push(text_update(ANN, 11, "/quick situan"))
        await world.slash(BOB, "quick", channel_id=None, what="situan")
        await type_line(manager, "/quick situan", "en")  # typed in the console
        table = await quick_table_of(world, clock, "tg:u11", "dc:u22", "you")
        chat = table.chat
        assert sum(seat is not None and seat.ai for seat in table.seats) == 1
        dm = world.fake.dm_channels[BOB]

        def hands_shown() -> bool:
            return (
                "Your hand" in tg_said(api)
                and "Situan · hand 1" in tg_said(api)
                and "你的手牌" in dc_said(world, dm)
                and "四团 · 第 1 局" in dc_said(world, dm)
                and any(line.startswith("[you] Your hand") for line in printed)
            )

        await eventually(hands_shown, 10.0, 0.01, "each hand and table shown on its platform")
        # Each is shown their own cards only, in their own language; no group hears of it.
        assert not world.fake.channel_messages(CHANNEL_ID)
        tg_texts, dc_texts = tg_said(api), dc_said(world, dm)
        assert "第 1 局" not in tg_texts and "hand 1" not in dc_texts
        assert not re.search(r"\b(?:tg|dc):", tg_texts + dc_texts, re.I)
        # Each plays from their own platform: one move each, taken once.
        for _ in range(20_000):
            if not table.is_open():
                break
            seat = table.turn_seat
            occupant = None if seat is None else table.seats[seat]
            if occupant is not None and not occupant.ai and not table.hand.auto[seat]:
                before = table.turn_count
                if occupant.user == "tg:u11":
                    api.push(text_update(ANN, 11, "/auto on"))
                elif occupant.user == "dc:u22":
                    await world.slash(BOB, "auto", channel_id=None, on="on")
                else:
                    await type_line(manager, "/auto on", "en")
                await eventually(
                    lambda b=before, s=seat: table.turn_count > b or table.hand.auto[s], 10.0
                )
                continue
            if table.deadline is not None:
                clock.now = max(clock.now, table.deadline)
            await asyncio.sleep(0.01)  # the world's timers act on the clock moved
        assert not table.is_open(), "the quick table did not end"
        await world.settle()
        # The table closes in memory a moment before its last step is stored: wait for it.
        for _ in range(1000):
            finished = [h.result for h in await world.db.hands_of(chat) if h.result is not None]
            if finished:
                break
            await asyncio.sleep(0.01)
        # Ratings by OpenSkill's own numbers, the AI seat at its level's fixed rating.
        await assert_rated_as_openskill(world.db, table)
        # The end reached each platform, in each reader's language.
        await eventually(lambda: "\nRatings: " in tg_said(api), 10.0)
        await eventually(lambda: "\n等级分：" in dc_said(world, dm), 10.0)
        assert any("\n    Ratings: " in line for line in printed)
    finally:
        await telegram.stop()
        await api.stop()
        await world.close()


def tg_said(api: FakeBotAPI) -> str:
    """Everything the Telegram player's private chat shows (texts and captions)."""
    return "\n".join(m.get("text") or m.get("caption") or "" for m in api.chat_messages(11))


def dc_said(world: DiscordWorld, dm: str) -> str:
    """Everything the Discord player's DM shows."""
    return "\n".join(m.get("content") or "" for m in world.fake.channel_messages(dm))
