"""Telegram: group calls per hand and the time from a button press to the edited message.

Run: ``python bench/telegram_calls.py [--hands 3] [--move-seconds 0]``

Drives real python-telegram-bot against the fake Bot API of the tests (127.0.0.1 only): four
users play whole hands of each game by pressing the buttons of their private hand messages.
Pacing time runs 30× faster than the wall clock (as in the tests), so the one-minute group
budget is checked in full. ``--move-seconds`` makes each player take that long (in pacing
time) per move; 0 is "four fast players", the case the budget is hardest on.

Prints, per game: group calls (sends + edits) per hand, the most group calls in any 60 s
window (budget 20) — counted when each call is made, by the adapter, and as the fake server
received them — the median / p90 time from a callback query to the edit of the
presser's hand message, measured at the fake server (wall-clock ms), and how many edits
Telegram would refuse as changing nothing ("message is not modified", a 400).

``--scenario tuoguan`` seats one person who goes on 托管 at once and three AI players,
``--scenario ai`` four AI players (each acting after 1 s of pacing time): the figures are
then group calls per hand and the typical (median) and worst 60 s windows.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.table.state import CLOSED
from tests.call_windows import calls_per_window
from tests.telegram.world import PACE_SPEED, PLAYERS, TelegramWorld, play_turn

WINDOW = 60.0


async def measure_table(game: str, hands: int, scenario: str, folder: str) -> dict[str, float]:
    """Calls per hand of a table played by the table itself (AI seats, a person on 托管)."""
    world = await TelegramWorld.open(f"{folder}/{game}-{scenario}.sqlite3")
    try:
        await world.say(11, "/start", chat_id=11)
        await world.say(11, f"/new {game}")
        await world.say(11, f"/settings max_hands {hands}")
        await world.say(11, f"/settings ai_delay {1 / PACE_SPEED:.3f}")
        if scenario == "ai":
            await world.say(11, "/leave")
        for _ in range(4 if scenario == "ai" else 3):
            await world.say(11, "/addbot")
        first_call = len(world.api.calls)
        await world.say(11, "/start")
        if scenario == "tuoguan":
            await world.say(11, "/auto on", chat_id=11)
        table = world.manager.tables[world.key()]
        while table.state != CLOSED:
            if table.state == "between":
                await world.say(11, "/ready")
            await asyncio.sleep(0.05)
        await asyncio.sleep(25 * 3 / PACE_SPEED)
        await world.settle()
        calls = [c for c in world.group_calls() if c in world.api.calls[first_call:]]
        made = [at for chat, at in world.adapter.outbox.group_calls_made if chat == world.key()]
        windows = calls_per_window(made, WINDOW)
        # Counted where each is posted: a table message headed by one keeps it in its edits.
        timeouts = sum(
            1
            for c in calls
            if c.method == "sendMessage" and "已超时" in str(c.params.get("text", ""))
        )
        return {
            "calls_per_hand": len(calls) / hands,
            "typical_minute": statistics.median(windows),
            "worst_minute": max(windows),
            "timeout_lines": timeouts,
        }
    finally:
        await world.close()


async def measure(game: str, hands: int, move_seconds: float, folder: str) -> dict[str, float]:
    world = await TelegramWorld.open(f"{folder}/{game}.sqlite3")
    try:
        for user_id in PLAYERS:
            await world.say(user_id, "/start", chat_id=user_id)
        await world.say(11, f"/new {game}")
        for user_id in (12, 13, 14):
            await world.say(user_id, "/join")
        await world.say(11, f"/settings max_hands {hands}")
        first_call = len(world.api.calls)
        await world.say(11, "/start")
        key = world.key()
        table = world.manager.tables[key]
        while table.state != CLOSED:
            if table.state == "between":
                for user_id in PLAYERS:
                    if table.state == "between":
                        await world.say(user_id, "/ready")
                continue
            await play_turn(world, key)
            if move_seconds:
                await asyncio.sleep(move_seconds / PACE_SPEED)
        await asyncio.sleep(25 * 3 / PACE_SPEED)  # the last paced posts
        await world.settle()
        calls = [c for c in world.group_calls() if c in world.api.calls[first_call:]]
        times = [c.at * PACE_SPEED for c in calls]
        busiest = max(calls_per_window(times, WINDOW))
        made = [at for chat, at in world.adapter.outbox.group_calls_made if chat == key]
        busiest_made = max(calls_per_window(made, WINDOW))
        latencies = sorted(world.press_latencies)
        posts = sum(1 for c in calls if c.method != "editMessageText")
        return {
            "calls_per_hand": len(calls) / table.hand_number,
            "posts_per_hand": posts / table.hand_number,
            "busiest_minute": busiest,
            "busiest_minute_counted_when_made": busiest_made,
            "press_median_ms": 1000 * statistics.median(latencies),
            "press_p90_ms": 1000 * latencies[int(0.9 * (len(latencies) - 1))],
            "hands": table.hand_number,
            "presses": len(latencies),
            "not_modified": world.api.not_modified,
        }
    finally:
        await world.close()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--move-seconds", type=float, default=0.0)
    parser.add_argument("--scenario", choices=("players", "tuoguan", "ai"), default="players")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for game in ("situan", "erqiwang"):
            if args.scenario != "players":
                found = await measure_table(game, args.hands, args.scenario, folder)
                print(
                    f"{game} ({args.scenario}): {found['calls_per_hand']:.1f} group calls per "
                    f"hand; 60 s windows: typical {found['typical_minute']:.0f}, worst "
                    f"{found['worst_minute']:.0f} calls (budget 20); time-out lines "
                    f"{found['timeout_lines']:.0f}"
                )
                continue
            figures = await measure(game, args.hands, args.move_seconds, folder)
            print(
                f"{game}: {figures['hands']:.0f} hands, {figures['calls_per_hand']:.1f} group "
                f"calls per hand ({figures['posts_per_hand']:.1f} posts, the rest edits), "
                f"busiest minute {figures['busiest_minute_counted_when_made']:.0f} calls as "
                f"counted when made ({figures['busiest_minute']:.0f} as the fake server received "
                "them; budget 20); "
                f"press → edited hand message: median {figures['press_median_ms']:.1f} ms, "
                f"p90 {figures['press_p90_ms']:.1f} ms over {figures['presses']:.0f} presses; "
                f"{figures['not_modified']:.0f} edits refused as not modified"
            )


if __name__ == "__main__":
    asyncio.run(main())
