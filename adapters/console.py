"""The console table: the embedded default adapter and the reference one for tests.

One terminal shows the group's messages and the human's private messages, clearly apart;
the human types the same commands as in a chat (the leading ``/`` may be left out). With
``--humans 0`` four AI players play the given number of hands and the process exits after
the final ledger.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable

from bot.commands import parse_command
from bot.i18n import normalize_language, t
from bot.manager import TableManager
from bot.outgoing import Outgoing
from bot.table import CLOSED, LOBBY
from storage import Database

CHAT = "console"
HUMAN = "you"


class ConsolePrinter:
    """Prints outgoing messages: group posts, the table message (only when it changed) and
    the human's private messages, each with its own label."""

    def __init__(self, lang: str, write: Callable[[str], None] = print) -> None:
        self.lang = lang
        self.write = write
        self._last_table = ""

    async def __call__(self, message: Outgoing) -> None:
        message = message.resolved()
        if message.kind == "table":
            if message.text == self._last_table:
                return
            self._last_table = message.text
            label = t(self.lang, "[table]")
        elif message.kind in ("private", "reply") and message.user not in (None, HUMAN):
            return  # another player's private message: never shown here
        elif message.kind in ("private", "reply"):
            label = t(self.lang, "[you]")
        else:
            label = t(self.lang, "[group]")
        indented = message.text.replace("\n", "\n    ")
        self.write(f"{label} {indented}")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot console", description="Play in the terminal"
    )
    parser.add_argument("--game", choices=("situan", "erqiwang"), default="situan")
    parser.add_argument("--preset", default=None)
    parser.add_argument("--humans", type=int, choices=(0, 1), default=1)
    parser.add_argument(
        "--hands", type=int, default=0, help="stop after this many hands (0: play on)"
    )
    parser.add_argument("--seed", type=int, default=None, help="deal the same cards every run")
    parser.add_argument("--lang", default=None)
    parser.add_argument("--db", default=None)
    parser.add_argument("--ai-delay", type=float, default=None, help="seconds an AI waits to act")
    return parser


async def run_console(args: argparse.Namespace, db_path: str, default_lang: str) -> int:
    lang = normalize_language(args.lang) or default_lang
    printer = ConsolePrinter(lang)
    db = await Database.open(db_path)
    seeds = None
    if args.seed is not None:
        base = args.seed
        seeds = lambda number: base * 100_003 + number  # noqa: E731 - hand n always deals alike
    manager = TableManager(db, printer, seeds=seeds, language=lang)
    await manager.restore()
    try:
        table = manager.tables.get(CHAT)
        if table is None or table.state == CLOSED:
            await open_table(manager, args, lang)
        elif table.state == LOBBY:  # stopped before the match began: finish setting it up
            await seat_and_start(manager, args, lang)
        if args.humans == 0:
            return await play_unattended(manager)
        return await play_with_human(manager)
    finally:
        await db.close()


async def type_line(manager: TableManager, text: str, lang: str) -> None:
    """Type a command as the human; what it answers is printed like everything else."""
    command = parse_command(
        text if text.startswith("/") else "/" + text, HUMAN, "You", CHAT, lang=lang
    )
    if command is not None:
        for message in await manager.handle(command):
            await manager.send(message)


async def open_table(manager: TableManager, args: argparse.Namespace, lang: str) -> None:
    preset = f" {args.preset}" if args.preset else ""
    await type_line(manager, f"/new {args.game}{preset}", lang)
    table = manager.tables.get(CHAT)
    if table is None:
        raise SystemExit(2)
    await seat_and_start(manager, args, lang)


async def seat_and_start(manager: TableManager, args: argparse.Namespace, lang: str) -> None:
    """Set the console's options, fill the free seats with AI players and start."""
    delay = args.ai_delay if args.ai_delay is not None else (0.0 if args.humans == 0 else 1.0)
    await type_line(manager, f"/settings ai_delay {delay}", lang)
    await type_line(manager, f"/settings max_hands {args.hands}", lang)
    table = manager.tables[CHAT]
    if args.humans == 0 and table.seat_of(HUMAN) is not None:
        await type_line(manager, "/leave", lang)
    for _ in range(4 - sum(seat is not None for seat in table.seats)):
        await type_line(manager, "/addbot", lang)
    await type_line(manager, "/start", lang)


async def play_unattended(manager: TableManager) -> int:
    table = manager.tables[CHAT]
    while table.state != CLOSED:
        await manager.tick()
        if table.deadline is not None and table.deadline > manager.clock():
            await asyncio.sleep(max(0.0, table.deadline - manager.clock()))
    return 0


async def play_with_human(manager: TableManager) -> int:
    stop = asyncio.Event()
    timers = asyncio.create_task(manager.run_timers(stop))
    loop = asyncio.get_running_loop()
    table = manager.tables[CHAT]
    try:
        while table.state != CLOSED:
            line = await loop.run_in_executor(None, sys.stdin.readline)
            if not line:
                break
            text = line.strip()
            if text in ("/quit", "quit", "/exit", "exit"):
                break
            if text:
                await type_line(manager, text, table.lang)
    finally:
        stop.set()
        await timers
    return 0
