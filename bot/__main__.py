"""``python -m bot``: run every adapter whose token is set; with none, the console table.

``python -m bot console --game situan|erqiwang [--preset P] [--humans 0|1] [--hands N]
[--seed S] [--lang L] [--db FILE]`` is the console's full form.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Mapping

from adapters.console import build_parser, check_preset, run_console
from adapters.router import SendRouter
from adapters.startup import StartupError
from bot.i18n import DEFAULT_LANGUAGE, normalize_language
from bot.logs import configure_logging
from bot.manager import TableManager
from storage import Database


def main(argv: list[str]) -> int:
    lang = normalize_language(os.environ.get("BOT_LANG")) or DEFAULT_LANGUAGE
    platforms = not (argv and argv[0] == "console") and (
        os.environ.get("TELEGRAM_BOT_TOKEN") or os.environ.get("DISCORD_BOT_TOKEN")
    )
    if platforms:
        secrets = ("TELEGRAM_BOT_TOKEN", "DISCORD_BOT_TOKEN", "TELEGRAM_WEBHOOK_SECRET")
        configure_logging(os.environ.get(name, "") for name in secrets)
        try:
            return asyncio.run(run_platforms(os.environ, database_path(None), lang))
        except StartupError as error:  # one clear line, no traceback, never the token
            print(f"python -m bot: cannot start: {error}", file=sys.stderr)
            return 2
    if argv and argv[0] == "console":
        argv = argv[1:]
    parser = build_parser()
    args = parser.parse_args(argv)
    check_preset(parser, args)
    return asyncio.run(run_console(args, database_path(args.db), lang))


def database_path(given: str | None) -> str:
    return given or os.environ.get("BOT_DB") or "./cardbot.sqlite3"


async def run_platforms(
    env: Mapping[str, str], db_path: str, lang: str, stop: asyncio.Event | None = None
) -> int:
    """Every platform whose token is set, sharing one table manager, until SIGINT/SIGTERM
    (or ``stop`` is set). A platform that cannot start raises `StartupError`."""
    from adapters.discord.app import DiscordAdapter, DiscordSettings
    from adapters.telegram.app import TelegramAdapter, TelegramSettings

    db = await Database.open(db_path)
    router = SendRouter()
    manager = TableManager(db, router, language=lang)
    adapters: list[TelegramAdapter | DiscordAdapter] = []
    telegram = TelegramSettings.from_env(env)
    if telegram is not None:
        adapter = TelegramAdapter(manager, db, telegram, lang)
        router.routes["tg:"] = adapter.outbox
        adapters.append(adapter)
    discord_settings = DiscordSettings.from_env(env)
    if discord_settings is not None:
        discord_adapter = DiscordAdapter(manager, discord_settings, lang, db=db)
        router.routes["dc:"] = discord_adapter.outbox
        adapters.append(discord_adapter)
    if stop is None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(signum, stop.set)
    try:
        for running in adapters:
            await running.start()
        await manager.restore()
        await manager.run_timers(stop)
    finally:
        for running in reversed(adapters):
            await running.stop()
        await db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
