"""``python -m bot``'s command line: its subcommands, each with its ``--help``, and the
console's own options (given without the word ``console``)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from importlib import metadata

from bot.ops import config
from bot.ops.masking import masked_urls
from bot.ops.store_address import database_address

COMMANDS = {
    "serve": "run the platforms whose token is set (Telegram, Discord) until SIGTERM",
    "console": "play at a table in this terminal (the default with no token set)",
    "config": "print the settings in effect, secrets masked",
    "migrate": "create or migrate the database's schema, print its version",
    "export-db": "write everything in the database to a JSON-lines file",
    "import-db": "read a JSON-lines file into a database that holds nothing yet",
    "backup-db": "copy the database while the bot runs (SQLite: a file; PostgreSQL: an export)",
}
"""Every subcommand, with the line ``--help`` shows for it."""


def program() -> str:
    """The name the program was started by, as its lines begin."""
    return "cardbot" if os.path.basename(sys.argv[0]) == "cardbot" else "python -m bot"


def version() -> str:
    try:
        return metadata.version("nanchang-cardbot")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown (not installed)"


def _database_argument(text: str) -> str:
    try:
        return database_address(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(
            f"{masked_urls(text)}: {error}; say {config.BY_NAME['BOT_DB'].allowed}"
        ) from None


ConsoleOptions = Callable[..., argparse.ArgumentParser]
"""Builds the console's own parser (`adapters.console_options.build_parser`): given a reader
of ``--db`` and whether it adds ``--help``."""


def command_line(
    console_options: ConsoleOptions,
) -> tuple[argparse.ArgumentParser, argparse.ArgumentParser]:
    """The whole command line, each subcommand with its ``--help``; and the console's own
    parser (made by ``console_options``), for its options given without the word
    ``console``."""
    prog = program()
    parser = argparse.ArgumentParser(
        prog=prog,
        description="The Nanchang card bot: 四团 and 二七王 on Telegram, Discord, the "
        "terminal and the web. Every setting is an environment variable (`config`).",
        epilog=f"Without a command: serve when TELEGRAM_BOT_TOKEN or DISCORD_BOT_TOKEN is "
        f"set, else console. `{prog} COMMAND --help` tells each command's options.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    commands = parser.add_subparsers(dest="command", title="commands", metavar="COMMAND")
    commands.add_parser("serve", help=COMMANDS["serve"], description=COMMANDS["serve"])
    console_parser = console_options(_database_argument)
    commands.add_parser(
        "console",
        help=COMMANDS["console"],
        description=COMMANDS["console"],
        parents=[console_options(_database_argument, add_help=False)],
    )
    commands.add_parser("config", help=COMMANDS["config"], description=COMMANDS["config"])
    database = argparse.ArgumentParser(add_help=False)
    database.add_argument(
        "--db",
        type=_database_argument,
        help="a SQLite file or a postgresql:// address (default: BOT_DB)",
    )
    commands.add_parser(
        "migrate", parents=[database], help=COMMANDS["migrate"], description=COMMANDS["migrate"]
    )
    for name in ("export-db", "import-db"):
        command = commands.add_parser(
            name, parents=[database], help=COMMANDS[name], description=COMMANDS[name]
        )
        command.add_argument("file", help="the JSON-lines file")
    backup = commands.add_parser(
        "backup-db",
        parents=[database],
        help=COMMANDS["backup-db"],
        description=COMMANDS["backup-db"],
    )
    backup.add_argument("file", help="a new file")
    return parser, console_parser
