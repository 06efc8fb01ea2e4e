"""Capacity of one Telegram token: N simulated tables at human pace through the real outgoing
machinery — the per-group pacers (`adapters.pacing`), the conversations that keep only the
latest view (`adapters.delivery`) and the bot-wide send budget by priority
(`adapters.send_budget`) — with every call counted and timed, none made (no network), on a
virtual clock (`tests.virtual_time`: minutes of traffic in seconds, the same on every run).

Run: ``python bench/capacity.py [--minutes 5] [--people 2] [--move-seconds 5] [--rate 30]
[--latency 0.1] [--tables N]``

A table: four seats, ``--people`` of them people who take 2–8 s a move (``--move-seconds``
on average), the rest AI seats that act after their pause (1.5 s). Each move sends what the
bot sends for it: the table message (urgent when a trick ends or a person is to act), the
mover's own hand (a person's), a private turn notice when the turn comes to a person, a
group post when a trick ends; a hand of 52 moves ends with its last table and a settlement
post, and the next is dealt 10 s later. (A model of the bot's messages, not the bot: see
`bench/telegram_calls.py` for what real hands send.)

Prints calls per table per minute (measured with room to spare), the tables one token serves
within ``--rate`` calls a second, and, at twice that many tables, the p50/p99 delay from a
message being handed to the outbox to its call: of private turn notices (target ≤ 2 s) and of
group tables (until the group shows that state or a newer one); and the most calls any group
got in a minute (≤ 20).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.views.outgoing import Kind, Outgoing
from tests.call_windows import calls_per_window
from tests.counted_sends import CountedOutbox
from tests.virtual_time import run_virtual

MOVES_PER_HAND = 52
AI_PAUSE = 1.5
BETWEEN_HANDS = 10.0


async def play_table(
    index: int,
    outbox: CountedOutbox,
    args: argparse.Namespace,
    until: float,
    told: dict[str, float],
    states: dict[str, list[float]],
) -> None:
    """One table's messages, at human pace, until the clock reaches ``until``."""
    loop = asyncio.get_running_loop()
    rng = random.Random(index)
    chat = f"group-{index}"
    people = [f"user-{index}-{seat}" for seat in range(args.people)]
    seats = people + [None] * (4 - args.people)
    states[chat] = []
    await asyncio.sleep(rng.uniform(0, 10))  # the tables start apart
    hand = 0
    while loop.time() < until:
        hand += 1
        slot = f"table {chat} {hand}"
        for move in range(MOVES_PER_HAND):
            actor = seats[move % 4]
            spread = args.move_seconds
            await asyncio.sleep(rng.uniform(0.4 * spread, 1.6 * spread) if actor else AI_PAUSE)
            following = seats[(move + 1) % 4]
            trick_over = move % 4 == 3
            states[chat].append(loop.time())
            number = len(states[chat]) - 1
            last = move == MOVES_PER_HAND - 1
            urgent = trick_over or following is not None
            await outbox(
                Outgoing(Kind.TABLE, chat, f"state {number}", slot=slot, urgent=urgent, final=last)
            )
            if actor is not None:
                await outbox(
                    Outgoing(Kind.PRIVATE, chat, "hand", user=actor, slot=f"hand {chat} {hand}")
                )
            if trick_over:
                await outbox(Outgoing(Kind.GROUP, chat, f"trick {move // 4} won"))
            if following is not None and following != actor and not last:
                key = f"notice {chat} {number}"
                told[key] = loop.time()
                await outbox(Outgoing(Kind.PRIVATE, chat, key, user=following))
        await outbox(Outgoing(Kind.GROUP, chat, "settlement"))
        await asyncio.sleep(BETWEEN_HANDS)


async def simulate(tables: int, rate: float, args: argparse.Namespace) -> dict[str, object]:
    outbox = CountedOutbox(rate, latency=args.latency)
    told: dict[str, float] = {}
    states: dict[str, list[float]] = {}
    until = args.minutes * 60.0
    await asyncio.gather(*(play_table(i, outbox, args, until, told, states) for i in range(tables)))
    while not (outbox.paced_out() and outbox.idle()):
        await asyncio.sleep(1.0)
    notices, table_delays = [], []
    shown: dict[str, int] = {}
    per_group: dict[str, list[float]] = {}
    for call in outbox.calls:
        text = call.message.text
        if text in told:
            notices.append(call.at - told[text])
        if call.group:
            per_group.setdefault(call.key, []).append(call.at)
        if call.message.kind == Kind.TABLE:
            found = re.findall(r"state (\d+)", text)
            if found:
                newest = int(found[-1])
                for number in range(shown.get(call.message.chat, -1) + 1, newest + 1):
                    table_delays.append(call.at - states[call.message.chat][number])
                shown[call.message.chat] = max(newest, shown.get(call.message.chat, -1))
    latest = sum(1 for chat, times in states.items() if shown.get(chat) == len(times) - 1)
    worst = max((max(calls_per_window(t, 60.0)) for t in per_group.values()), default=0)
    return {
        "calls": len(outbox.calls),
        "per_table_minute": len(outbox.calls) / tables / args.minutes,
        "notices": sorted(notices),
        "tables": sorted(table_delays),
        "latest": latest,
        "worst_group_minute": worst,
    }


def pct(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(len(values) * q))] if values else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--people", type=int, default=2, choices=(1, 2, 3, 4))
    parser.add_argument("--move-seconds", type=float, default=5.0)
    parser.add_argument("--rate", type=float, default=30.0, help="bot-wide calls a second")
    parser.add_argument("--latency", type=float, default=0.1, help="seconds a call takes")
    parser.add_argument(
        "--tables",
        type=int,
        default=0,
        help="tables at the 2× run (default: twice what one token serves)",
    )
    args = parser.parse_args()
    calm = run_virtual(simulate(50, 1000.0, args))
    per_minute = float(calm["per_table_minute"])  # type: ignore[arg-type]
    served = int(args.rate * 60 / per_minute)
    print(
        f"{args.people} people + {4 - args.people} AI seats a table, a move every "
        f"{args.move_seconds:g} s on average per person, {args.minutes:g} virtual minutes"
    )
    print(f"calls per table per minute: {per_minute:.1f} (50 tables, no bot-wide shortage)")
    print(f"tables one token serves within {args.rate:g} calls/s: {served}")
    tables = args.tables or 2 * served
    busy = run_virtual(simulate(tables, args.rate, args))
    notices, table_delays = busy["notices"], busy["tables"]
    assert isinstance(notices, list) and isinstance(table_delays, list)
    print(
        f"at {tables} tables: {busy['calls']:,} calls, "
        f"{float(busy['per_table_minute']):.1f} per table per minute"
    )  # type: ignore[arg-type]
    print(
        f"  private turn notices: {len(notices):,}, delay p50 {pct(notices, 0.5):.2f} s, "
        f"p99 {pct(notices, 0.99):.2f} s, max {notices[-1]:.2f} s (target p99 ≤ 2 s)"
    )
    print(
        f"  group table states: {len(table_delays):,}, shown after p50 "
        f"{pct(table_delays, 0.5):.1f} s, p99 {pct(table_delays, 0.99):.1f} s"
    )
    print(
        f"  tables ending on their latest state: {busy['latest']} of {tables}; most calls "
        f"in any group's minute: {busy['worst_group_minute']} (budget 20)"
    )


if __name__ == "__main__":
    main()
