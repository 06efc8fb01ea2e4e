"""``python -m bot``: run every adapter whose token is set; with none, the console table.

``python -m bot console --game situan|erqiwang [--preset P] [--humans 0|1] [--hands N]
[--seed S] [--lang L] [--db FILE]`` is the console's full form.
"""

from __future__ import annotations

import asyncio
import os
import sys

from adapters.console import build_parser, run_console
from bot.i18n import DEFAULT_LANGUAGE, normalize_language


def main(argv: list[str]) -> int:
    if argv and argv[0] == "console":
        argv = argv[1:]
    elif os.environ.get("TELEGRAM_BOT_TOKEN") or os.environ.get("DISCORD_BOT_TOKEN"):
        print(
            "The Telegram and Discord adapters are not built yet; starting the console table.",
            file=sys.stderr,
        )
    args = build_parser().parse_args(argv)
    db_path = args.db or os.environ.get("BOT_DB") or "./cardbot.sqlite3"
    lang = normalize_language(os.environ.get("BOT_LANG")) or DEFAULT_LANGUAGE
    return asyncio.run(run_console(args, db_path, lang))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
