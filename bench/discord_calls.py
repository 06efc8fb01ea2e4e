"""Discord: channel calls per hand and the time from a click to the updated hand message.

Run: ``python bench/discord_calls.py [--hands 3] [--scenario players|tuoguan|ai]``

Drives real discord.py against the fake gateway + REST server of the tests (127.0.0.1 only):
four members play whole hands of each game by clicking the components of their DM hand
messages. Pacing time runs 30× faster than the wall clock, as in the tests. Prints, per game:
channel calls (posts + edits) per hand, the most in any 60 s window and in any 5 s (Discord's
limit for a channel: 5), and
the median / p90 time from an interaction to its response (wall-clock ms).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from adapters.discord.components import channel_key
from bot.table.state import CLOSED
from tests.call_windows import calls_per_window
from tests.discord.fake_discord import CHANNEL_ID
from tests.discord.test_discord import actor, seated
from tests.discord.world import PACE_SPEED, DiscordWorld, presses_for

WINDOW = 60.0


async def measure_table(game: str, hands: int, scenario: str, folder: str) -> dict[str, float]:
    """Calls per hand of a table that plays itself: one member on 托管 and three AI players
    (``tuoguan``), or four AI players (``ai``), each acting after 1 s of pacing time."""
    world = await DiscordWorld.open(f"{folder}/{game}-{scenario}.sqlite3")
    try:
        first = len(world.fake.calls)
        await world.slash("21", "new", game=game)
        for name, value in (("max_hands", str(hands)), ("ai_delay", f"{1 / PACE_SPEED:.3f}")):
            await world.slash("21", "settings", name=name, value=value)
        if scenario == "ai":
            await world.slash("21", "leave")
        for _ in range(4 if scenario == "ai" else 3):
            await world.slash("21", "addbot")
        await world.slash("21", "start")
        if scenario == "tuoguan":
            await world.slash("21", "auto", channel_id=None, on=True)
        table = world.manager.tables[world.key()]
        while table.state != CLOSED:
            if table.state == "between":
                await world.slash("21", "ready")
            await asyncio.sleep(0.05)
        await asyncio.sleep(25 * 3 / PACE_SPEED)
        await world.settle()
        calls = [c for c in world.channel_calls(CHANNEL_ID) if c in world.fake.calls[first:]]
        key = channel_key(int(CHANNEL_ID))
        made = [at for chat, at in world.adapter.outbox.group_calls_made if chat == key]
        windows, bursts = calls_per_window(made, WINDOW), calls_per_window(made, 5.0)
        timeouts = sum(1 for c in calls if "超时" in str((c.body or {}).get("content", "")))
        return {
            "calls_per_hand": len(calls) / hands,
            "typical_minute": statistics.median(windows),
            "worst_minute": max(windows),
            "burst": max(bursts),
            "timeout_lines": timeouts,
        }
    finally:
        await world.close()


async def measure(game: str, hands: int, folder: str) -> dict[str, float]:
    world = await DiscordWorld.open(f"{folder}/{game}.sqlite3")
    try:
        first = len(world.fake.calls)
        key = await seated(world, game, hands=hands)
        table = world.manager.tables[key]
        latencies = []
        while table.state != CLOSED:
            if table.state == "between":
                for member in ("21", "22", "23", "24"):
                    if table.state == "between":
                        await world.slash(member, "ready")
                continue
            member = actor(world, key)
            for command in presses_for(table):
                started = time.monotonic()
                await world.click(member, world.hand_message(member), command)
                latencies.append(time.monotonic() - started)
        await asyncio.sleep(25 * 3 / PACE_SPEED)
        await world.settle()
        calls = [c for c in world.channel_calls(CHANNEL_ID) if c in world.fake.calls[first:]]
        times = [c.at * PACE_SPEED for c in calls]
        busiest = max(calls_per_window(times, WINDOW))
        key = channel_key(int(CHANNEL_ID))  # as the host counted its calls
        counted = [at for chat, at in world.adapter.outbox.group_calls_made if chat == key]
        burst = max(calls_per_window(counted, 5.0))
        posts = sum(1 for c in calls if c.method == "POST")
        latencies.sort()
        return {
            "hands": table.hand_number,
            "calls_per_hand": len(calls) / table.hand_number,
            "posts_per_hand": posts / table.hand_number,
            "busiest": busiest,
            "burst": burst,
            "median_ms": 1000 * statistics.median(latencies),
            "p90_ms": 1000 * latencies[int(0.9 * (len(latencies) - 1))],
            "clicks": len(latencies),
        }
    finally:
        await world.close()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--scenario", choices=("players", "tuoguan", "ai"), default="players")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for game in ("situan", "erqiwang"):
            if args.scenario != "players":
                found = await measure_table(game, args.hands, args.scenario, folder)
                print(
                    f"{game} ({args.scenario}): {found['calls_per_hand']:.1f} channel calls per "
                    f"hand; 60 s windows: typical {found['typical_minute']:.0f}, worst "
                    f"{found['worst_minute']:.0f}; busiest 5 s {found['burst']:.0f} (Discord's "
                    f"limit 5); time-out lines {found['timeout_lines']:.0f}"
                )
                continue
            f = await measure(game, args.hands, folder)
            print(
                f"{game}: {f['hands']:.0f} hands, {f['calls_per_hand']:.1f} channel calls per "
                f"hand ({f['posts_per_hand']:.1f} posts, the rest edits), busiest minute "
                f"{f['busiest']:.0f}, busiest 5 s {f['burst']:.0f} (Discord's limit 5); "
                f"click → response: median {f['median_ms']:.1f}"
                f" ms, p90 {f['p90_ms']:.1f} ms over {f['clicks']:.0f} clicks"
            )


if __name__ == "__main__":
    asyncio.run(main())
