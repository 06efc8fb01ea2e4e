"""Running the platforms (``python -m bot serve``): every adapter whose token is set, the store
they share, the health and metrics listener, and the web table with its doors on the
platforms; one line and exit code 2 when they cannot start. Loaded only to serve:
``--help``, ``--version``, ``config`` and the store's commands answer without it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from adapters.health import Health, health_app
from adapters.router import SendRouter
from adapters.serving import GuardedRunner, RefusalLog, ServerLimits, listen_with
from adapters.startup import StartupError
from adapters.web.auth import LinkSigner
from adapters.web.door import WebDoor
from adapters.web.server import MayWatch, WebTable
from adapters.web.settings import WebSettings
from bot.hosting.collector import settle_after_start
from bot.hosting.manager import TableManager
from bot.hosting.quick_reach import Reach
from bot.hosting.table_leases import Ownership
from bot.ops import config, metrics
from bot.ops.command_line import version
from bot.ops.config import Settings
from bot.ops.logs import configure_logging, follow_games
from bot.ops.store_operations import masked_reason
from storage import Database
from storage.opening import is_postgres_address, masked_address

if TYPE_CHECKING:  # the platforms' libraries are imported only when they run
    from adapters.discord.client import DiscordSettings
    from adapters.telegram.app import TelegramSettings

log = logging.getLogger("bot")


NO_TOKEN = "no platform token set: set TELEGRAM_BOT_TOKEN or DISCORD_BOT_TOKEN"


def serve(settings: Settings, prog: str) -> int:
    """The platforms, until SIGINT/SIGTERM; exit code 2 with one line when they cannot
    start (no token among them)."""
    if not settings.platforms():
        print(f"{prog}: cannot start: {NO_TOKEN}", file=sys.stderr)
        return 2
    try:
        level, form = settings["BOT_LOG_LEVEL"], settings["BOT_LOG_FORMAT"]
        configure_logging(settings.secrets, level, form)
        return asyncio.run(run_platforms(os.environ, settings.db, settings.lang))
    except StartupError as error:  # one clear line, no traceback, never the token
        print(f"{prog}: cannot start: {error}", file=sys.stderr)
        return 2


def ownership_from(settings: Settings) -> Ownership | None:
    """On PostgreSQL, several processes may share the database, so tables are leased
    (`bot.hosting.table_leases`): ``BOT_PROCESS_ID`` names this process in the leases and logs
    (default host:pid; each start adds its own mark, so two processes given one name by mistake
    never both own a table), ``BOT_PEER_URL`` is where the others forward its tables' Telegram
    updates (its webhook server, ``http://host:port``), and ``BOT_LEASE_SECONDS`` how long a dead
    process's tables wait for a new owner (default 15). A SQLite file is one process's: no
    leases."""
    if not is_postgres_address(settings.db):
        return None
    name = settings["BOT_PROCESS_ID"] or Ownership.default_owner()
    return Ownership.started(name, settings["BOT_PEER_URL"] or "", settings["BOT_LEASE_SECONDS"])


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
        return await listen_with(
            health_app(health, with_metrics),
            listen,
            port,
            limits,
            RefusalLog(log, limits.refusals_every),
        )
    except OSError as error:
        reason = f"BOT_HEALTH_PORT={port} (on {listen}): {error}"
        raise StartupError(f"the health endpoint cannot listen: {reason}") from error


def link_signer(manager: TableManager, settings: WebSettings) -> LinkSigner:
    """The signer of the web table's links: ``WEB_LINK_SECRET`` (random per start without it),
    each link for the match now at its table."""
    return LinkSigner(settings.link_secret, match_of=manager.match_at)


def web_door(signer: LinkSigner, settings: PlatformSettings) -> WebDoor:
    """How the platforms' adapters open the web table (`adapters.web.door`)."""
    assert settings.web is not None
    mini_app = settings.telegram.mini_app if settings.telegram is not None else ""
    return WebDoor(settings.web.public_url, signer, mini_app, settings.web.link_seconds)


def web_table_for(
    manager: TableManager,
    signer: LinkSigner,
    settings: PlatformSettings,
    may_watch: MayWatch | None,
) -> WebTable:
    """The web table of ``manager`` (``WEB_PUBLIC_URL`` set): Mini Apps checked with the
    Telegram token; ``may_watch`` answers whether a group's member may watch (the Telegram
    adapter's, made before it: the adapters hand out the table's links)."""
    assert settings.web is not None
    token = settings.telegram.token if settings.telegram is not None else None
    return WebTable(
        manager,
        signer,
        bot_token=token,
        limits=settings.web.limits,
        init_data_max_age=settings.web.init_data_max_age,
        may_watch=may_watch,
    )


async def serve_web(web_table: WebTable, settings: WebSettings) -> GuardedRunner:
    """The web table on a port of its own (``WEB_PORT``, never the health endpoint's)."""
    try:
        runner, _ = await web_table.serve(settings.listen, settings.port)
    except OSError as error:
        reason = f"WEB_PORT={settings.port} (on {settings.listen}): {error}"
        raise StartupError(f"the web table cannot listen: {reason}") from error
    return runner


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
    timer_step: float
    """Seconds between two looks at the tables' timers (``BOT_TIMER_STEP``)."""
    checked: Settings
    """All of them, as `bot.ops.config` read them."""
    web: WebSettings | None = None
    """The web table (`adapters.web.settings`): None without ``WEB_PUBLIC_URL``."""

    def reach(self) -> Reach:
        """Whose quick tables this process may hold: the players of the platforms it both
        sends on and hears privately (`bot.hosting.quick_reach`)."""
        discord = self.discord
        shards = None if discord is None else discord.shard_ids
        return Reach.of_process(self.telegram is not None, discord is not None, shards)

    @classmethod
    def from_settings(cls, settings: Settings) -> PlatformSettings:
        from adapters.discord.client import DiscordSettings
        from adapters.telegram.app import TelegramSettings

        return cls(
            telegram=TelegramSettings.from_settings(settings),
            discord=DiscordSettings.from_settings(settings),
            ownership=ownership_from(settings),
            retention=settings.retention_seconds,
            metrics=settings["BOT_METRICS"],
            ai_workers=settings.ai_workers,
            timer_step=settings["BOT_TIMER_STEP"],
            checked=settings,
            web=WebSettings.from_settings(settings),
        )


def started_line(settings: PlatformSettings, db: Database, tables: int) -> str:
    """The bot's own line once it is serving: its version, its store (the address masked),
    the platforms and how each receives, the web table and the health endpoint."""
    platforms = []
    if settings.telegram is not None:
        mode = "webhook" if settings.telegram.webhook_url else "polling"
        platforms.append(f"telegram ({mode})")
    if settings.discord is not None:
        ids, count = settings.discord.shard_ids, settings.discord.shard_count
        shards = f" (shards {','.join(map(str, ids))}/{count})" if ids else ""
        platforms.append(f"discord{shards}")
    web = "off" if settings.web is None else f"on at {settings.web.public_url}"
    port = settings.checked["BOT_HEALTH_PORT"]
    health = "off" if port is None else f"on port {port}"
    return (
        f"cardbot {version()} started: store {db.backend} {masked_address(settings.checked.db)}"
        f" ({tables} open tables), platforms {', '.join(platforms)}, web table {web}, "
        f"health {health}, AI workers {settings.ai_workers}"
    )


def instrument(manager: TableManager, db: Database) -> Callable[[], None]:
    """The figures (`bot.ops.metrics`) and JSON log lines follow this manager's tables and this
    store's commits; returns what stops counting its tables."""
    follow_games(manager.game_at)
    db.time_commits(metrics.committed(db.backend))
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
        reason = masked_reason(error, db_path)
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
    manager = TableManager(
        db,
        router,
        language=lang,
        ownership=ownership,
        retention=settings.retention,
        ai_workers=settings.ai_workers,
        reach=settings.reach(),
    )
    stop_counting = instrument(manager, db)
    health_board.attach(manager, db)
    if ownership is not None:
        log.info(
            "sharing the database as %s (leases of %.0f s)", ownership.owner, ownership.seconds
        )
    adapters: list[TelegramAdapter | DiscordAdapter] = []
    web_runner: GuardedRunner | None = None
    try:
        signer = link_signer(manager, settings.web) if settings.web is not None else None
        door = web_door(signer, settings) if signer is not None else None
        may_watch: MayWatch | None = None
        if settings.telegram is not None:
            adapter = TelegramAdapter(
                manager, db, settings.telegram, lang, web=door, health=health_board
            )
            router.routes["tg:"] = adapter.outbox
            health_board.adapters["telegram"] = adapter.connection
            adapters.append(adapter)
            may_watch = adapter.is_member  # a group's members may watch its web table
        if settings.discord is not None:
            discord_adapter = DiscordAdapter(manager, settings.discord, lang, db=db, web=door)
            router.routes["dc:"] = discord_adapter.outbox
            health_board.adapters["discord"] = discord_adapter.connection
            adapters.append(discord_adapter)
        web_table = None
        if signer is not None:
            web_table = web_table_for(manager, signer, settings, may_watch)
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
        health_board.started()
        log.info("%s", started_line(settings, db, len(manager.open_games())))
        await manager.run_timers(stop, settings.timer_step)
    finally:
        stop_counting()
        health_board.stopping()
        if web_runner is not None:
            await web_runner.cleanup()
        for running in reversed(adapters):
            await running.stop()
        await manager.release_leases()  # stopped cleanly: the others take over at once
    return 0
