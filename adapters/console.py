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
import stat
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from adapters.serving import GuardedRunner
from adapters.web.links import seat_link
from adapters.web.server import WebTable
from bot.commands import parse_command
from bot.games import GAME_NAMES, presets
from bot.i18n import LANGUAGES, N_, normalize_language, t
from bot.manager import TableManager
from bot.outgoing import Kind, Outgoing
from bot.phases import Phase
from bot.pictures import render_async
from bot.registry import PRIVATE_ONLY, SETS_LANGUAGE
from bot.settings import AI_LEVELS
from storage import Database

CHAT = "console"
HUMAN = "you"
WEB_PORT = 8765
"""The console's web table port by default (any free port when it is taken)."""
PAGE_LOOK_SECONDS = 0.2
"""How often the console looks whether its web table's last page has closed, once the match
is over (the web server keeps its pages; nothing tells when one goes)."""
PAGE_CLOSE_SECONDS = 1.0
"""How long the console waits for its web pages to close when it ends."""
MATCH_LOOK_SECONDS = 1.0
"""How long the play loop waits, with nothing typed nor printed, before it looks again
whether the match is over (it looks after every message printed as well)."""
WEB_LINK_SECONDS = 7 * 86_400.0
"""The console's link is good while the program runs (its key dies with it): a week."""
log = logging.getLogger(__name__)


class ConsolePrinter:
    """Prints outgoing messages: group posts, the table message (only when it changed) and
    the human's private messages, each with its own label."""

    def __init__(self, lang: str, write: Callable[[str], None] = print,
                 pictures: Path | None = None) -> None:  # fmt: skip
        self.lang = lang
        self.write = write
        self.pictures = pictures
        """Where pictures are written: ``<pictures>-hand.png`` …; None: no pictures."""
        self._last_table = ""
        self._hand_slot: str | None = None
        self.printed = asyncio.Event()
        """Set after each message: the play loop looks again whether the match is over."""
        self.follow: Callable[[], str] | None = None
        """The table's language, which its labels and lines follow (a table resumed in 繁體
        prints 繁體 from its first line, a restart's notice included)."""

    def follow_table(self, language_at: Callable[[], str]) -> None:
        """From now on, print in the table's language as ``language_at`` tells it."""
        self.follow = language_at

    def speak(self, lang: str) -> None:
        """Print in ``lang`` from now on (a /lang, a resumed table's language)."""
        self.lang = lang

    async def __call__(self, message: Outgoing) -> None:
        if self.follow is not None:
            self.lang = self.follow()
        try:
            await self._print(message.resolved())
        finally:
            self.printed.set()

    async def _print(self, message: Outgoing) -> None:
        if message.kind == Kind.TABLE:
            if message.text == self._last_table:
                return
            self._last_table = message.text
            label = t(self.lang, "[table]")
        elif message.kind in (Kind.PRIVATE, Kind.REPLY) and message.user not in (None, HUMAN):
            return  # another player's private message: never shown here
        elif message.kind in (Kind.PRIVATE, Kind.REPLY):
            label = t(self.lang, "[you]")
        else:
            label = t(self.lang, "[group]")
        indented = message.text.replace("\n", "\n    ")
        self.write(f"{label} {indented}")
        if message.kind in (Kind.GROUP, Kind.REPLY) and message.buttons:
            self._say_what_to_type(message)
        if message.picture is not None and self.pictures is not None:
            await self._picture(message)

    def _say_what_to_type(self, message: Outgoing) -> None:
        """The console shows no buttons: a message that has them says what to type instead
        (the lobby's /join, /addbot, /start; the settlement's /ready)."""
        commands = dict.fromkeys(b.command for row in message.buttons for b in row if not b.url)
        if commands:
            typed = " · ".join(commands)
            self.write("    " + t(self.lang, "(type {commands})", commands=typed))

    def say(self, key: str, **values: object) -> None:
        """A line of the console's own, in its language."""
        if self.follow is not None:
            self.lang = self.follow()
        self.write(t(self.lang, key, **values))

    async def _picture(self, message: Outgoing) -> None:
        """Write the picture (off the event loop); a failure is logged, the text stood."""
        assert message.picture is not None and self.pictures is not None
        hand = message.kind == Kind.PRIVATE
        path = self.pictures.with_name(
            f"{self.pictures.name}-{'hand' if hand else 'settlement'}.png"
        )
        try:
            png = await render_async(message.picture)
            path.write_bytes(png)
        except Exception as error:
            log.warning("no picture written to %s: %s", path, error)
            return
        if hand and message.slot == self._hand_slot:
            return  # the same hand's file, kept current: its path was said
        if hand:
            self._hand_slot = message.slot
        self.write(t(self.lang, "[picture] {path}", path=str(path)))


def build_parser(
    database: Callable[[str], str] = str, add_help: bool = True
) -> argparse.ArgumentParser:
    """The console's options; ``database`` reads ``--db`` (the settings' check of an
    address, from `bot.__main__`)."""
    parser = argparse.ArgumentParser(
        prog="python -m bot console", description="Play in the terminal", add_help=add_help
    )
    parser.add_argument("--game", choices=GAME_NAMES, default=None,
                        help=f"the game of a new table (default {GAME_NAMES[0]})")  # fmt: skip
    parser.add_argument("--new", action="store_true",
                        help="end the match stored here (if any) and open a new table")  # fmt: skip
    parser.add_argument("--preset", default=None)
    parser.add_argument("--humans", type=int, choices=(0, 1), default=1)
    parser.add_argument(
        "--hands", type=int, default=0, help="stop after this many hands (0: play on)"
    )
    parser.add_argument("--seed", type=int, default=None, help="deal the same cards every run")
    parser.add_argument("--lang", default=None, type=_language,
                        help="zh-Hans, zh-Hant or en")  # fmt: skip
    parser.add_argument(
        "--db",
        default=None,
        type=database,
        help="a SQLite file or a postgresql:// address (default: BOT_DB)",
    )
    parser.add_argument("--ai-delay", type=float, default=None, help="seconds an AI waits to act")
    parser.add_argument("--ai", choices=AI_LEVELS, default=None,
                        help="the AI players' level (the table's ai_level)")  # fmt: skip
    parser.add_argument("--pictures", action="store_true",
                        help="write hand and settlement pictures beside the database")  # fmt: skip
    parser.add_argument("--no-web", dest="web", action="store_false",
                        help="no local web table (on by default)")  # fmt: skip
    parser.add_argument("--web-port", type=int, default=None,
                        help=f"the web table's port on 127.0.0.1 (default {WEB_PORT}, or any "
                             "free one if that is taken)")  # fmt: skip
    parser.add_argument(
        "--crash-after-actions", type=int, default=None, help=argparse.SUPPRESS
    )  # crash tests: end as if killed, at a known point
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        type=_setting, help="a table or rule option (repeatable)")  # fmt: skip
    return parser


def stdin_can_be_read() -> bool:
    """Whether a person may type to the console: standard input is a terminal, or a pipe or
    a socket that someone writes to. ``/dev/null`` (a container without ``-i``, systemd,
    nohup), a closed one or a file is not: the loop cannot wait on them for lines."""
    try:
        descriptor = sys.stdin.fileno()
        mode = os.fstat(descriptor).st_mode
    except (AttributeError, ValueError, OSError):
        return False
    return os.isatty(descriptor) or stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def _language(text: str) -> str:
    language = normalize_language(text)
    if language is None:
        raise argparse.ArgumentTypeError(
            f"unknown language {text!r}: choose {', '.join(LANGUAGES)}"
        )
    return language


def _setting(text: str) -> tuple[str, str]:
    name, equals, value = text.partition("=")
    if not equals or not name or not value:
        raise argparse.ArgumentTypeError(f"say NAME=VALUE, not {text!r}")
    return name.strip(), value.strip()


def check_preset(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """An unknown preset is an error that lists the game's presets."""
    game = args.game or GAME_NAMES[0]
    known = presets(game)
    if args.preset is not None and args.preset not in known:
        parser.error(f"unknown preset {args.preset!r} for {game}: choose {', '.join(known)}")


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
    manager = TableManager(db, printer, seeds=seeds, language=lang)
    printer.follow_table(lambda: manager.language_at(CHAT))
    crash_at = getattr(args, "crash_after_actions", None)
    if crash_at is not None:
        manager.keeper.committed = lambda stored: _crash(stored, crash_at)
    web: LocalWeb | None = None
    try:
        if getattr(args, "web", False):
            web = await LocalWeb.start(manager, getattr(args, "web_port", None))
    except OSError as error:
        await db.close()
        printer.say(N_("The web table cannot listen on 127.0.0.1:{port}: {reason}"),
                    port=args.web_port, reason=str(error))  # fmt: skip
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
                printer.say(N_("The match is over. The web table stays open until you press "
                               "Enter (or close its last page)."))  # fmt: skip
                await web.until_closed_or(keyboard, stop)
        finally:
            keyboard.detach()
        return 0
    finally:
        if web is not None:
            await web.stop()
        await db.close()


class LocalWeb:
    """The console's web table: on 127.0.0.1 only, one link for the terminal's player (a
    spectator's, when no person plays)."""

    def __init__(self, table: WebTable, runner: GuardedRunner, port: int) -> None:
        self.table = table
        self.runner = runner
        self.port = port

    @classmethod
    async def start(cls, manager: TableManager, port: int | None) -> LocalWeb:
        """`OSError` when a port asked for is taken (the default one falls back to any)."""
        table = WebTable(manager)
        try:
            runner, taken = await table.serve("127.0.0.1", WEB_PORT if port is None else port)
        except OSError:
            if port is not None:
                raise
            runner, taken = await table.serve("127.0.0.1", 0)
        return cls(table, runner, taken)

    def link(self) -> str:
        seat = self.table.manager.seat_at(CHAT, HUMAN)
        base = f"http://127.0.0.1:{self.port}"
        return seat_link(base, self.table.signer, HUMAN, CHAT, seat, WEB_LINK_SECONDS)

    def pages_open(self) -> int:
        return self.table.pages.count()

    async def until_closed_or(self, keyboard: Keyboard, stop: asyncio.Event) -> None:
        """Until a line is typed (Enter), the last page closes, or Ctrl-C / SIGTERM."""
        typed = asyncio.ensure_future(keyboard.line())
        stopping = asyncio.ensure_future(stop.wait())
        try:
            while self.pages_open() and not typed.done() and not stopping.done():
                await asyncio.wait({typed, stopping}, timeout=PAGE_LOOK_SECONDS)
        finally:
            typed.cancel()
            stopping.cancel()

    async def stop(self) -> None:
        """The pages are closed first (a second at most): an open page's socket would hold
        the server's shutdown until its heartbeat gave up, 30 s after Enter."""
        closing = [asyncio.ensure_future(page.close()) for pages in
                   self.table.pages.by_chat.values() for page in pages]  # fmt: skip
        if closing:
            await asyncio.wait(closing, timeout=PAGE_CLOSE_SECONDS)
        await self.runner.cleanup()


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
    asked = [flag for flag, given in (
        ("--game", args.game is not None and args.game != game), ("--preset", args.preset),
        ("--hands", args.hands), ("--ai", args.ai), ("--set", args.set),
    ) if given]  # fmt: skip
    if not asked:
        return
    printer.say(N_("A match stopped here was resumed, so {flags} did not apply. To start "
                   "anew: /stop, or run again with --new (or another --db)."),
                flags=" ".join(asked))  # fmt: skip


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
    if command.name in PRIVATE_ONLY:  # the console's one person says it to the bot alone
        command = replace(command, private=True)
    for message in await manager.handle(command):
        await manager.send(message)


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


class Keyboard:
    """The lines typed, read from standard input's descriptor as it becomes readable, so
    that no thread blocks on the terminal and Ctrl-C and SIGTERM end the program at once.
    Each read may bring several lines (typed while a message was printed, or pasted): every
    one is queued. (``sys.stdin.readline()`` under ``add_reader`` kept the ones after the
    first in its own buffer, where the loop never looked: they were lost.)"""

    def __init__(self, descriptor: int, loop: asyncio.AbstractEventLoop | None = None) -> None:
        self.descriptor = descriptor
        self.lines: asyncio.Queue[str | None] = asyncio.Queue()
        """Lines typed, without their end; None once input has ended."""
        self._partial = b""
        self._loop = loop
        """The loop reading it (None: not attached, or detached)."""
        if loop is not None:
            loop.add_reader(descriptor, self._readable)

    @classmethod
    def attach(cls) -> Keyboard:
        """Standard input, read by the running loop."""
        return cls(sys.stdin.fileno(), asyncio.get_running_loop())

    def detach(self) -> None:
        if self._loop is not None:
            with contextlib.suppress(ValueError, OSError):
                self._loop.remove_reader(self.descriptor)
            self._loop = None

    async def line(self) -> str | None:
        """The next line typed; None when input has ended (and from then on)."""
        line = await self.lines.get()
        if line is None:
            self.lines.put_nowait(None)
        return line

    def _readable(self) -> None:
        try:
            chunk = os.read(self.descriptor, 65_536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            chunk = b""
        if not chunk:  # the end of input: what was typed without an Enter counts too
            if self._partial:
                self.lines.put_nowait(self._partial.decode(errors="replace"))
            self._partial = b""
            self.lines.put_nowait(None)
            self.detach()
            return
        *complete, self._partial = (self._partial + chunk).split(b"\n")
        for line in complete:
            self.lines.put_nowait(line.decode(errors="replace").rstrip("\r"))


def match_over(manager: TableManager) -> bool:
    return manager.phase_at(CHAT) in (None, Phase.CLOSED)


async def play_with_human(
    manager: TableManager, stop: asyncio.Event, keyboard: Keyboard, printer: ConsolePrinter
) -> None:
    """Each line typed, in order, until the match is over (it is looked at after every
    message printed: the final score), the human quits or input ends, or Ctrl-C / SIGTERM.
    The timers are stopped before this returns."""
    timers_stop = asyncio.Event()
    timers = asyncio.create_task(manager.run_timers(timers_stop))
    typed: asyncio.Future[str | None] = asyncio.ensure_future(keyboard.line())
    try:
        while not match_over(manager) and not stop.is_set():
            printer.printed.clear()
            printed = asyncio.ensure_future(printer.printed.wait())
            stopping = asyncio.ensure_future(stop.wait())
            waited: set[asyncio.Future[Any]] = {typed, printed, stopping}
            await asyncio.wait(waited, timeout=MATCH_LOOK_SECONDS,
                               return_when=asyncio.FIRST_COMPLETED)  # fmt: skip
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
