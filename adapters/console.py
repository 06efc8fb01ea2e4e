"""The console table: the embedded default adapter and the reference one for tests.

One terminal shows the group's messages and the human's private messages, clearly apart;
the human types the same commands as in a chat (the leading ``/`` may be left out). With
``--humans 0`` four AI players play the given number of hands and the process exits after
the final ledger. With ``--pictures`` the hand and the settlement are also written as PNG
files next to the database, and their paths printed (a hand's once per hand: the file is
kept current as the hand goes on).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
from dataclasses import replace
from pathlib import Path
from typing import Any

from adapters.console_keyboard import Keyboard
from adapters.console_printer import CHAT, HUMAN, ConsolePrinter
from adapters.console_web import LocalWeb
from bot.commands.registry import PRIVATE_ONLY, SETS_LANGUAGE
from bot.community.quick_seating import is_quick
from bot.games import GAME_NAMES
from bot.hosting.manager import TableManager
from bot.i18n import N_, normalize_language, t
from bot.reading.command import parse_command
from bot.table.table_phases import Phase
from bot.views.outgoing import Kind, Outgoing
from storage import Database

TIMER_STEP = 0.02
"""How often the console's one table looks at its timers (the platforms' many tables: 0.2 s,
so that those due together are stored together): an AI player or 托管 acts when its pause
ends, not up to 0.2 s later — a whole hand on ``--ai-delay 0`` in a few seconds."""
MATCH_LOOK_SECONDS = 1.0
"""How long the play loop waits, with nothing typed nor printed, before it looks again
whether the match is over (it looks after every message printed as well)."""
log = logging.getLogger(__name__)


async def run_console(args: argparse.Namespace, db_path: str, default_lang: str) -> int:
    """Play until the match ends, the human quits, or Ctrl-C / SIGTERM: everything is stored
    as it happens, so stopping at any moment loses nothing and the next run resumes. A
    resumed table keeps its language (``--lang`` changes it, as ``/lang`` would)."""
    lang = args.lang or default_lang
    pictures = Path(db_path).with_suffix("") if getattr(args, "pictures", False) else None
    printer = ConsolePrinter(lang, pictures=pictures)
    db = await Database.open(db_path)
    seeds = None
    if args.seed is not None:
        base = args.seed
        seeds = lambda number: base * 100_003 + number  # noqa: E731 - hand n always deals alike
    crash_at = getattr(args, "crash_after_actions", None)
    committed = None if crash_at is None else (lambda stored: _crash(stored, crash_at))
    manager = TableManager(db, printer, seeds=seeds, language=lang, committed=committed)
    printer.follow_table(lambda: manager.language_at(CHAT))
    web: LocalWeb | None = None
    try:
        if getattr(args, "web", False):
            web = await LocalWeb.start(manager, getattr(args, "web_port", None))
    except OSError as error:
        await db.close()
        printer.say(
            N_("The web table cannot listen on 127.0.0.1:{port}: {reason}"),
            port=args.web_port,
            reason=str(error),
        )
        return 2
    await manager.restore()
    try:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(signum, stop.set)
        phase = manager.phase_at(CHAT)
        if phase not in (None, Phase.CLOSED):  # resumed: in the table's language
            lang = manager.language_at(CHAT)
            printer.speak(lang)
            if args.lang is not None and args.lang != lang:
                await type_line(manager, f"/lang {args.lang}", lang)
                lang = args.lang
        if phase not in (None, Phase.CLOSED) and getattr(args, "new", False):
            await type_line(manager, "/stop", lang)  # the stored match ends, its score shown
            phase = manager.phase_at(CHAT)
        elif phase not in (None, Phase.CLOSED):
            tell_what_was_resumed(manager, args, printer)
        if phase is None or phase == Phase.CLOSED:
            await open_table(manager, args, lang)
        elif phase == Phase.LOBBY:  # stopped before the match began: finish setting it up
            await seat_and_start(manager, args, lang)
        elif manager.is_seated(CHAT, HUMAN):  # resumed: show the human's hand again
            await type_line(manager, "/hand", lang)
        if web is not None and manager.has_table(CHAT):
            printer.say(N_("Web table (this computer only): {link}"), link=web.link())
        if args.humans == 0:
            return await play_unattended(manager, stop)
        keyboard = Keyboard.attach()
        try:
            await play_with_human(manager, stop, keyboard, printer)
            if web is not None and not stop.is_set() and web.pages_open():
                printer.say(
                    N_(
                        "The match is over. The web table stays open until you press "
                        "Enter (or close its last page)."
                    )
                )
                await web.until_closed_or(keyboard, stop)
        finally:
            keyboard.detach()
        return 0
    finally:
        if web is not None:
            await web.stop()
        await db.close()


def _crash(stored: int, at: int) -> None:
    """End the process as SIGKILL would — no cleanup, nothing more sent — once ``at``
    actions are committed: a crash test's kill, at a point it chose, every time."""
    if stored >= at:
        os._exit(137)


def tell_what_was_resumed(
    manager: TableManager, args: argparse.Namespace, printer: ConsolePrinter
) -> None:
    """A table stopped here mid-match is resumed; flags meant for a new table say so, with
    how to start anew, rather than being ignored in silence."""
    game = manager.game_at(CHAT)
    asked = [
        flag
        for flag, given in (
            ("--game", args.game is not None and args.game != game),
            ("--preset", args.preset),
            ("--hands", args.hands),
            ("--ai", args.ai),
            ("--set", args.set),
        )
        if given
    ]
    if not asked:
        return
    printer.say(
        N_(
            "A match stopped here was resumed, so {flags} did not apply. To start "
            "anew: /stop, or run again with --new (or another --db)."
        ),
        flags=" ".join(asked),
    )


async def type_line(manager: TableManager, text: str, lang: str) -> None:
    """Type a command as the human; what it answers is printed like everything else. In the
    console the table's language is the player's too: /lang changes all it prints."""
    command = parse_command(text, HUMAN, t(lang, "Player"), CHAT, lang=lang, plain=True)
    if command is None:
        return
    wanted = (
        normalize_language(command.args[0])
        if command.name in SETS_LANGUAGE and command.args
        else None
    )
    if wanted is not None:  # the player's name is a word of the language: it follows too
        command = replace(command, user_name=t(wanted, "Player"))
        await manager.handle(replace(command, private=True))  # the player's own language
        command = replace(command, lang=wanted)
        if isinstance(manager.send, ConsolePrinter):
            manager.send.speak(wanted)
        await manager.handle(command)  # the table's: its answer is for a chat with others
        await manager.send(Outgoing(Kind.REPLY, CHAT, t(wanted, "Language set."), user=HUMAN))
        return
    if command.name in PRIVATE_ONLY or at_a_quick_table(manager):
        # Said to the bot alone: what only a private chat takes, and everything while the
        # console's person sits at a quick table, which lives in no chat of the console's
        # (the manager routes it there, as it routes a platform's private chat).
        command = replace(command, private=True)
    for message in await manager.handle(command):
        await manager.send(message)


def at_a_quick_table(manager: TableManager) -> bool:
    return any(is_quick(table.chat) for table in manager.tables_seating(HUMAN))


async def open_table(manager: TableManager, args: argparse.Namespace, lang: str) -> None:
    preset = f" {args.preset}" if args.preset else ""
    await type_line(manager, f"/new {args.game or GAME_NAMES[0]}{preset}", lang)
    if manager.phase_at(CHAT) is None:
        raise SystemExit(2)
    await seat_and_start(manager, args, lang)


async def seat_and_start(manager: TableManager, args: argparse.Namespace, lang: str) -> None:
    """Set the console's options, fill the free seats with AI players and start."""
    delay = args.ai_delay if args.ai_delay is not None else (0.0 if args.humans == 0 else 1.0)
    await type_line(manager, f"/settings ai_delay {delay}", lang)
    await type_line(manager, f"/settings max_hands {args.hands}", lang)
    pictures = "on" if getattr(args, "pictures", False) else "off"
    await type_line(manager, f"/settings pictures {pictures}", lang)
    if getattr(args, "ai", None):
        await type_line(manager, f"/settings ai_level {args.ai}", lang)
    if getattr(args, "practice", None):
        await type_line(manager, f"/settings practice_mode {args.practice}", lang)
    for name, value in args.set:
        await type_line(manager, f"/settings {name} {value}", lang)
    if args.humans == 0 and manager.is_seated(CHAT, HUMAN):
        await type_line(manager, "/leave", lang)
    for _ in range(manager.free_seats(CHAT)):
        await type_line(manager, "/addbot", lang)
    await type_line(manager, "/start", lang)


async def play_unattended(manager: TableManager, stop: asyncio.Event) -> int:
    while manager.phase_at(CHAT) not in (None, Phase.CLOSED) and not stop.is_set():
        await manager.tick()
        deadline = manager.deadline_at(CHAT)
        if deadline is not None and deadline > manager.clock():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), max(0.0, deadline - manager.clock()))
    return 0


def match_over(manager: TableManager) -> bool:
    return manager.phase_at(CHAT) in (None, Phase.CLOSED)


async def play_with_human(
    manager: TableManager, stop: asyncio.Event, keyboard: Keyboard, printer: ConsolePrinter
) -> None:
    """Each line typed, in order, until the match is over (it is looked at after every
    message printed: the final score), the human quits or input ends, or Ctrl-C / SIGTERM.
    The timers are stopped before this returns."""
    timers_stop = asyncio.Event()
    timers = asyncio.create_task(manager.run_timers(timers_stop, TIMER_STEP))
    typed: asyncio.Future[str | None] = asyncio.ensure_future(keyboard.line())
    try:
        while not match_over(manager) and not stop.is_set():
            printer.printed.clear()
            printed = asyncio.ensure_future(printer.printed.wait())
            stopping = asyncio.ensure_future(stop.wait())
            waited: set[asyncio.Future[Any]] = {typed, printed, stopping}
            await asyncio.wait(
                waited, timeout=MATCH_LOOK_SECONDS, return_when=asyncio.FIRST_COMPLETED
            )
            printed.cancel()
            stopping.cancel()
            if not typed.done():
                continue  # printed, stopped or a while gone by: look again
            line = typed.result()
            if line is None:
                break
            typed = asyncio.ensure_future(keyboard.line())
            text = line.strip()
            if text in ("/quit", "quit", "/exit", "exit"):
                break
            if text:
                await type_line(manager, text, manager.language_at(CHAT))
    finally:
        typed.cancel()
        timers_stop.set()
        await timers
