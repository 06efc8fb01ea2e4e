"""``python -m bot``: run every adapter whose token is set; with none, the console table.

``python -m bot console --game situan|erqiwang [--preset P] [--humans 0|1] [--hands N]
[--seed S] [--lang L] [--db FILE]`` is the console's full form.

Operators' commands, on the database named by ``--db`` or ``BOT_DB``:
``python -m bot migrate`` (migrate it, print its schema version), ``python -m bot export-db
FILE`` (everything in it to a JSON-lines file), ``python -m bot import-db FILE`` (such a
file into a database that holds nothing yet, SQLite or PostgreSQL alike) and ``python -m bot
backup-db FILE`` (a copy taken while the bot runs: `storage.backup`).

``python -m bot config`` prints the settings in effect, secrets masked. Every setting is an
environment variable, read and checked first by `bot.config`, whatever the command: a bad
one ends the program with one line and exit code 2.

On PostgreSQL several processes may run at once, each table leased to one of them
(``BOT_PROCESS_ID``, ``BOT_PEER_URL``, ``BOT_LEASE_SECONDS``: `ownership_from`); Telegram
then runs in webhook mode behind one address, Discord with ``DISCORD_SHARDS`` per process.

``BOT_AI_WORKERS`` is how many processes make the ``hard`` AI seats' decisions (default the
cores less one; 0: in the bot's own process, as the console does).

``WEB_PUBLIC_URL`` serves the web table (`adapters.web`) on ``WEB_PORT``, with its doors on
the platforms (`adapters.web.door`).

``BOT_HEALTH_PORT`` (with the platforms running) serves ``GET /healthz`` and ``GET /readyz``
on that port (``BOT_HEALTH_LISTEN``, default 0.0.0.0; `adapters.health`), a listener of its
own (never ``WEB_PORT``), from before the store is opened, and ``GET /metrics`` beside it
with ``BOT_METRICS=on`` (`bot.metrics`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from adapters.console import build_parser, check_preset, run_console
from adapters.health import Health, health_app
from adapters.router import SendRouter
from adapters.serving import GuardedRunner, RefusalLog, ServerLimits, serve
from adapters.startup import StartupError
from adapters.web.auth import LinkSigner
from adapters.web.door import WebDoor
from adapters.web.server import WebTable
from adapters.web.settings import WebSettings
from bot import config, metrics
from bot.collector import settle_after_start
from bot.config import Settings
from bot.leasing import Ownership
from bot.logs import configure_logging, follow_games
from bot.manager import TableManager
from bot.pictures.fonts import use_extra_fonts
from storage import Database
from storage.backup import BackupError, backup_sqlite
from storage.base import DUMP_KINDS
from storage.opening import address_secrets, is_postgres_address, masked_address
from storage.transfer import TransferError, export_to, import_from

if TYPE_CHECKING:  # the platforms' libraries are imported only when they run
    from adapters.discord.app import DiscordSettings
    from adapters.telegram.app import TelegramSettings

log = logging.getLogger("bot")


OPERATIONS = ("migrate", "export-db", "import-db", "backup-db")


def main(argv: list[str]) -> int:
    """Every setting is read and checked first (`bot.config`): a bad one ends the program
    with one line and exit code 2, whatever the command."""
    try:
        settings = config.load(os.environ)
    except StartupError as error:
        print(f"python -m bot: cannot start: {error}", file=sys.stderr)
        return 2
    for warning in config.unknown_variables(os.environ):
        print(f"python -m bot: warning: {warning}", file=sys.stderr)
    use_extra_fonts(settings["CARDBOT_PICTURE_FONTS"])
    if argv and argv[0] == "config":
        print("\n".join(settings.described()))
        return 0
    if argv and argv[0] in OPERATIONS:
        return operate(argv, settings)
    if not (argv and argv[0] == "console") and settings.platforms():
        try:
            level, form = settings["BOT_LOG_LEVEL"], settings["BOT_LOG_FORMAT"]
            configure_logging(settings.secrets, level, form)
            return asyncio.run(run_platforms(os.environ, settings.db, settings.lang))
        except StartupError as error:  # one clear line, no traceback, never the token
            print(f"python -m bot: cannot start: {error}", file=sys.stderr)
            return 2
    if argv and argv[0] == "console":
        argv = argv[1:]
    parser = build_parser()
    args = parser.parse_args(argv)
    check_preset(parser, args)
    return asyncio.run(run_console(args, args.db or settings.db, settings.lang))


# --------------------------------------------------------------------- operators' commands


def operations_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot")
    commands = parser.add_subparsers(dest="command", required=True)
    database = argparse.ArgumentParser(add_help=False)
    database.add_argument("--db", help="a SQLite file or a postgresql:// address (default: BOT_DB)")
    commands.add_parser("migrate", parents=[database], help="migrate the database, then exit")
    for name, verb in (("export-db", "write everything to"), ("import-db", "read everything from")):
        command = commands.add_parser(name, parents=[database], help=f"{verb} a JSON-lines file")
        command.add_argument("file")
    backup = commands.add_parser(
        "backup-db", parents=[database],
        help="copy the database while the bot runs: a SQLite file (PostgreSQL: an export)",
    )  # fmt: skip
    backup.add_argument("file", help="a new file")
    return parser


def operate(argv: list[str], settings: Settings) -> int:
    """``migrate``, ``export-db FILE``, ``import-db FILE`` or ``backup-db FILE``: 0 when
    done; otherwise one clear line on standard error (no traceback, never a password) and 1."""
    args = operations_parser().parse_args(argv)
    address = args.db or settings.db
    shown = masked_address(address)
    try:
        for line in asyncio.run(_operate(args.command, address, shown, args)):
            print(line)
    except Exception as error:
        reason = str(error) or type(error).__name__
        message = f"python -m bot {args.command}: {shown}: {reason}"
        for secret in address_secrets(address):
            message = message.replace(secret, "***")
        print(message.splitlines()[0] if message else message, file=sys.stderr)
        return 1
    return 0


async def _operate(command: str, address: str, shown: str, args: argparse.Namespace) -> list[str]:
    if command == "import-db" and not os.path.exists(args.file):
        raise TransferError(f"no file {args.file}")
    if command == "backup-db" and not is_postgres_address(address):
        # The running bot's file, read as it is: opening it here would migrate it.
        version, counts = await backup_sqlite(address, args.file)
        return [f"{shown} → {args.file}: {_counted(counts)} (schema version {version})"]
    if command == "backup-db" and os.path.exists(args.file):
        raise BackupError(f"{args.file} exists already: name a new file")
    db = await Database.open(address)  # opening migrates
    try:
        version = await db.schema_version()
        if command == "migrate":
            return [f"{shown}: schema version {version}"]
        if command in ("export-db", "backup-db"):  # PostgreSQL: one snapshot, as pg_dump's
            counts = await export_to(db, args.file)
            return [f"{shown} → {args.file}: {_counted(counts)}"]
        counts = await import_from(db, args.file)
        return [f"{args.file} → {shown}: {_counted(counts)}"]
    finally:
        await db.close()


def _counted(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{counts.get(kind, 0)} {kind}" for kind in DUMP_KINDS)


# --------------------------------------------------------------------- several processes


def ownership_from(settings: Settings) -> Ownership | None:
    """On PostgreSQL, several processes may share the database, so tables are leased
    (`bot.leasing`): ``BOT_PROCESS_ID`` names this process in the leases and logs (default
    host:pid; each start adds its own mark, so two processes given one name by mistake never
    both own a table), ``BOT_PEER_URL`` is where the others
    forward its tables' Telegram updates (its webhook server, ``http://host:port``), and
    ``BOT_LEASE_SECONDS`` how long a dead process's tables wait for a new owner (default 15).
    A SQLite file is one process's: no leases."""
    if not is_postgres_address(settings.db):
        return None
    name = settings["BOT_PROCESS_ID"] or Ownership.default_owner()
    return Ownership.started(name, settings["BOT_PEER_URL"] or "", settings["BOT_LEASE_SECONDS"])


# --------------------------------------------------------------------- health


async def start_health(
    settings: Settings, health: Health, with_metrics: bool = False
) -> GuardedRunner | None:
    """``GET /healthz`` and ``/readyz`` (and ``/metrics`` ``with_metrics``) on
    ``BOT_HEALTH_PORT`` (none when it is unset), a listener of their own (`health_app`)."""
    port: int | None = settings["BOT_HEALTH_PORT"]
    if port is None:
        return None
    listen: str = settings["BOT_HEALTH_LISTEN"]
    limits = ServerLimits()  # the webhook's: slow and idle clients closed, 100 at most
    try:
        return await serve(health_app(health, with_metrics), listen, port, limits,
                           RefusalLog(log, limits.refusals_every))  # fmt: skip
    except OSError as error:
        reason = f"BOT_HEALTH_PORT={port} (on {listen}): {error}"
        raise StartupError(f"the health endpoint cannot listen: {reason}") from error


# --------------------------------------------------------------------- the web table


def web_table_for(manager: TableManager, settings: PlatformSettings) -> WebTable:
    """The web table of ``manager`` (``WEB_PUBLIC_URL`` set): links signed with
    ``WEB_LINK_SECRET`` (random per start without it), Mini Apps checked with the Telegram
    token. The platforms' adapters make their links from it (`web_door`)."""
    assert settings.web is not None
    token = settings.telegram.token if settings.telegram is not None else None
    return WebTable(manager, LinkSigner(settings.web.link_secret), bot_token=token,
                    limits=settings.web.limits,
                    init_data_max_age=settings.web.init_data_max_age)  # fmt: skip


def web_door(web_table: WebTable, settings: PlatformSettings) -> WebDoor:
    """How the platforms' adapters open ``web_table`` (`adapters.web.door`)."""
    assert settings.web is not None
    mini_app = settings.telegram.mini_app if settings.telegram is not None else ""
    return WebDoor(settings.web.public_url, web_table.signer, mini_app,
                   settings.web.link_seconds)  # fmt: skip


async def serve_web(web_table: WebTable, settings: WebSettings) -> GuardedRunner:
    """The web table on a port of its own (``WEB_PORT``, never the health endpoint's)."""
    try:
        runner, _ = await web_table.serve(settings.listen, settings.port)
    except OSError as error:
        reason = f"WEB_PORT={settings.port} (on {settings.listen}): {error}"
        raise StartupError(f"the web table cannot listen: {reason}") from error
    return runner


# --------------------------------------------------------------------- start-up


@dataclass(frozen=True)
class PlatformSettings:
    """Every setting of ``python -m bot`` running the platforms, read and checked before
    anything is opened, so that a bad one stops the start with one line."""

    telegram: TelegramSettings | None
    discord: DiscordSettings | None
    ownership: Ownership | None
    retention: float
    """Seconds the store keeps a closed table."""
    metrics: bool
    ai_workers: int
    """Processes making the ``hard`` seats' decisions (``BOT_AI_WORKERS``)."""
    checked: Settings
    """All of them, as `bot.config` read them."""
    web: WebSettings | None = None
    """The web table (`adapters.web.settings`): None without ``WEB_PUBLIC_URL``."""

    @classmethod
    def from_settings(cls, settings: Settings) -> PlatformSettings:
        from adapters.discord.app import DiscordSettings
        from adapters.telegram.app import TelegramSettings

        return cls(
            telegram=TelegramSettings.from_settings(settings),
            discord=DiscordSettings.from_settings(settings),
            ownership=ownership_from(settings),
            retention=settings.retention_seconds,
            metrics=settings["BOT_METRICS"],
            ai_workers=settings.ai_workers,
            checked=settings,
            web=WebSettings.from_settings(settings),
        )


def instrument(manager: TableManager, db: Database) -> Callable[[], None]:
    """The figures (`bot.metrics`) and JSON log lines follow this manager's tables and this
    store's commits; returns what stops counting its tables."""
    follow_games(manager.game_at)
    db.on_commit = metrics.committed(db.backend)
    return metrics.watch_tables(manager.open_games)


OPEN_TIMEOUT = 30.0
"""How long the database may take to open (and migrate) at start."""


async def open_store(db_path: str) -> Database:
    """The database, opened and migrated; `StartupError` (one line, never its password)
    when it cannot be."""
    shown = masked_address(db_path)
    try:
        async with asyncio.timeout(OPEN_TIMEOUT):
            return await Database.open(db_path)
    except TimeoutError:
        raise StartupError(f"the database {shown} did not answer in {OPEN_TIMEOUT:g} s") from None
    except Exception as error:  # unreachable, refused, a file that cannot be written, …
        reason = (str(error) or type(error).__name__).splitlines()[0]
        for secret in address_secrets(db_path):
            reason = reason.replace(secret, "***")
        raise StartupError(f"the database {shown} cannot be opened: {reason}") from error


async def run_platforms(
    env: Mapping[str, str], db_path: str, lang: str, stop: asyncio.Event | None = None
) -> int:
    """Every platform whose token is set, sharing one table manager, until SIGINT/SIGTERM
    (or ``stop`` is set). Every setting is checked first, before anything is opened; a bad
    setting, a database that cannot be opened or a platform that cannot start raises
    `StartupError`, and whatever was opened by then is closed. ``db_path`` and ``lang``
    take the place of ``BOT_DB`` and ``BOT_LANG``."""
    checked = config.load(env, BOT_DB=db_path, BOT_LANG=lang)
    settings = PlatformSettings.from_settings(checked)
    health = Health()  # /readyz answers 503 while the store opens
    health_runner = await start_health(checked, health, settings.metrics)
    try:
        db = await open_store(db_path)
        try:
            return await _run_with(settings, db, lang, stop, health)
        finally:
            await db.close()
    finally:
        if health_runner is not None:
            await health_runner.cleanup()


async def _run_with(
    settings: PlatformSettings,
    db: Database,
    lang: str,
    stop: asyncio.Event | None,
    health_board: Health,
) -> int:
    from adapters.discord.app import DiscordAdapter
    from adapters.telegram.app import TelegramAdapter

    router = SendRouter()
    ownership = settings.ownership
    manager = TableManager(db, router, language=lang, ownership=ownership,
                           retention=settings.retention,
                           ai_workers=settings.ai_workers)  # fmt: skip
    stop_counting = instrument(manager, db)
    health_board.attach(manager, db)
    if ownership is not None:
        log.info("sharing the database as %s (leases of %.0f s)", ownership.owner,
                 ownership.seconds)  # fmt: skip
    adapters: list[TelegramAdapter | DiscordAdapter] = []
    web_runner: GuardedRunner | None = None
    try:
        web_table = door = None
        if settings.web is not None:
            web_table = web_table_for(manager, settings)
            door = web_door(web_table, settings)
        if settings.telegram is not None:
            adapter = TelegramAdapter(manager, db, settings.telegram, lang, web=door)
            router.routes["tg:"] = adapter.outbox
            adapter.health = health_board
            health_board.adapters["telegram"] = adapter.connection
            adapters.append(adapter)
            if web_table is not None:
                web_table.may_watch = adapter.is_member  # a group's members may watch
        if settings.discord is not None:
            discord_adapter = DiscordAdapter(manager, settings.discord, lang, db=db, web=door)
            router.routes["dc:"] = discord_adapter.outbox
            health_board.adapters["discord"] = discord_adapter.connection
            adapters.append(discord_adapter)
        if stop is None:
            stop = asyncio.Event()
            loop = asyncio.get_running_loop()
            for signum in (signal.SIGINT, signal.SIGTERM):
                with contextlib.suppress(NotImplementedError):
                    loop.add_signal_handler(signum, stop.set)
        for running in adapters:
            await running.start()
        await manager.restore()
        settle_after_start()
        if web_table is not None and settings.web is not None:
            web_runner = await serve_web(web_table, settings.web)
        health_board.ready = True
        await manager.run_timers(stop)
    finally:
        stop_counting()
        health_board.ready = False
        if web_runner is not None:
            await web_runner.cleanup()
        for running in reversed(adapters):
            await running.stop()
        await manager.release_leases()  # stopped cleanly: the others take over at once
    return 0


def cli() -> int:
    """The ``cardbot`` console script: the same as ``python -m bot``."""
    return main(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(cli())
