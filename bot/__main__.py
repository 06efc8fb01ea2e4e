"""``python -m bot`` (or ``cardbot``): run every adapter whose token is set; with none, the
console table — and with no terminal either, one line and exit code 2 (a service without a
token would only crash-loop). ``serve`` and ``console`` name the one or the other;
``--help`` lists every subcommand, ``--version`` the installed version, and each
subcommand has its ``--help``; none of them starts anything.

``python -m bot console --game situan|erqiwang [--preset P] [--humans 0|1] [--hands N]
[--seed S] [--lang L] [--db FILE]`` is the console's full form.

Operators' commands, on the database named by ``--db`` or ``BOT_DB``:
``python -m bot migrate`` (migrate it, print its schema version), ``python -m bot export-db
FILE`` (everything in it to a JSON-lines file), ``python -m bot import-db FILE`` (such a
file into a database that holds nothing yet, SQLite or PostgreSQL alike) and ``python -m bot
backup-db FILE`` (a copy taken while the bot runs: `storage.backup`).

``python -m bot config`` prints the settings in effect, secrets masked. Every setting is an
environment variable, read and checked first by `bot.ops.config`, whatever the command: a bad
one ends the program with one line and exit code 2.

On PostgreSQL several processes may run at once, each table leased to one of them
(``BOT_PROCESS_ID``, ``BOT_PEER_URL``, ``BOT_LEASE_SECONDS``:
`adapters.platforms.ownership_from`); Telegram
then runs in webhook mode behind one address, Discord with ``DISCORD_SHARDS`` per process.

``BOT_AI_WORKERS`` is how many processes make the ``hard`` AI seats' decisions (default the
cores this process may use less one, `bot.ops.cores.usable_cores`; 0: in the bot's own
process, as the console does).

``WEB_PUBLIC_URL`` serves the web table (`adapters.web`) on ``WEB_PORT``, with its doors on
the platforms (`adapters.web.door`).

``BOT_HEALTH_PORT`` (with the platforms running) serves ``GET /healthz`` and ``GET /readyz``
on that port (``BOT_HEALTH_LISTEN``, default 0.0.0.0; `adapters.health`), a listener of its
own (never ``WEB_PORT``), from before the store is opened, and ``GET /metrics`` beside it
with ``BOT_METRICS=on`` (`bot.ops.metrics`).
"""

from __future__ import annotations

import asyncio
import os
import sys

from adapters.console_keyboard import stdin_can_be_read
from adapters.console_options import build_parser, check_preset
from adapters.startup import StartupError
from bot.ops import config
from bot.ops.command_line import command_line, program
from bot.ops.store_operations import OPERATIONS, operate
from bot.pictures.fonts import use_extra_fonts

NO_TERMINAL = (
    "no platform token set and no terminal: set TELEGRAM_BOT_TOKEN or DISCORD_BOT_TOKEN, "
    "or run in a terminal to play here"
)
CONSOLE_WITHOUT_TERMINAL = (
    "no terminal to play in: run it in a terminal, or with --humans 0 to watch AI players"
)


def main(argv: list[str]) -> int:
    """The command line is read first: ``--help`` and ``--version`` answer and start
    nothing. Then every setting is read and checked (`bot.ops.config`): a bad one ends the
    program with one line and exit code 2, whatever the command. Without a command,
    ``serve`` when a token is set, else ``console`` (whose options may come alone)."""
    parser, console_parser = command_line(build_parser)
    prog = program()
    first = argv[0] if argv else ""
    named = bool(first) and (not first.startswith("-") or first in ("-h", "--help", "--version"))
    args = parser.parse_args(argv) if named else None
    try:
        settings = config.load(os.environ)
    except StartupError as error:
        print(f"{prog}: cannot start: {error}", file=sys.stderr)
        return 2
    for warning in config.unknown_variables(os.environ):
        print(f"{prog}: warning: {warning}", file=sys.stderr)
    use_extra_fonts(settings["CARDBOT_PICTURE_FONTS"])
    command = args.command if args is not None else None
    if command is None and not argv and settings.platforms():
        command = "serve"
    if command == "config":
        print("\n".join(settings.described()))
        return 0
    if command in OPERATIONS:
        assert args is not None
        return operate(args.command, args.db or settings.db, getattr(args, "file", ""), prog)
    if command == "serve":
        from adapters.platforms import serve  # the platforms' code: loaded only to serve

        return serve(settings, prog)
    if args is None:  # the console, its options (if any) alone: python -m bot --hands 2
        args = console_parser.parse_args(argv)
    check_preset(console_parser, args)
    if args.humans and not stdin_can_be_read():
        reason = CONSOLE_WITHOUT_TERMINAL if command == "console" else NO_TERMINAL
        print(f"{prog}: cannot start: {reason}", file=sys.stderr)
        return 2
    from adapters.console import run_console  # the table's code: loaded only to play

    return asyncio.run(run_console(args, args.db or settings.db, settings.lang))


# --------------------------------------------------------------------- several processes


# --------------------------------------------------------------------- health


# --------------------------------------------------------------------- the web table


# --------------------------------------------------------------------- start-up


def cli() -> int:
    """The ``cardbot`` console script: the same as ``python -m bot``."""
    return main(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(cli())
