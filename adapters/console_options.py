"""The console's command-line options (python -m bot console …), light to load: the games and
presets come from the engine's registry, so --help and a bad option answer at once."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from bot.i18n import LANGUAGES, normalize_language
from bot.reading.game_choices import GAME_NAMES, preset_names
from bot.reading.table_options import AI_LEVELS

WEB_PORT = 8765
"""The console's web table port by default (any free port when it is taken)."""


def build_parser(
    database: Callable[[str], str] = str, add_help: bool = True
) -> argparse.ArgumentParser:
    """The console's options; ``database`` reads ``--db`` (the settings' check of an
    address, from `bot.__main__`)."""
    parser = argparse.ArgumentParser(
        prog="python -m bot console", description="Play in the terminal", add_help=add_help
    )
    parser.add_argument(
        "--game",
        choices=GAME_NAMES,
        default=None,
        help=f"the game of a new table (default {GAME_NAMES[0]})",
    )
    parser.add_argument(
        "--new", action="store_true", help="end the match stored here (if any) and open a new table"
    )
    parser.add_argument("--preset", default=None)
    parser.add_argument("--humans", type=int, choices=(0, 1), default=1)
    parser.add_argument(
        "--hands", type=int, default=0, help="stop after this many hands (0: play on)"
    )
    parser.add_argument("--seed", type=int, default=None, help="deal the same cards every run")
    parser.add_argument("--lang", default=None, type=_language, help="zh-Hans, zh-Hant or en")
    parser.add_argument(
        "--db",
        default=None,
        type=database,
        help="a SQLite file or a postgresql:// address (default: BOT_DB)",
    )
    parser.add_argument("--ai-delay", type=float, default=None, help="seconds an AI waits to act")
    parser.add_argument(
        "--ai", choices=AI_LEVELS, default=None, help="the AI players' level (the table's ai_level)"
    )
    parser.add_argument(
        "--practice",
        nargs="?",
        const="on",
        choices=("on", "timed"),
        default=None,
        help="a practice table: hints, no time limit (timed: with it), not counted in /stats",
    )
    parser.add_argument(
        "--pictures",
        action="store_true",
        help="write hand and settlement pictures beside the database",
    )
    parser.add_argument(
        "--no-web", dest="web", action="store_false", help="no local web table (on by default)"
    )
    parser.add_argument(
        "--web-port",
        type=int,
        default=None,
        help=f"the web table's port on 127.0.0.1 (default {WEB_PORT}, or any "
        "free one if that is taken)",
    )
    parser.add_argument(
        "--crash-after-actions", type=int, default=None, help=argparse.SUPPRESS
    )  # crash tests: end as if killed, at a known point
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        type=_setting,
        help="a table or rule option (repeatable)",
    )
    return parser


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
    known = preset_names(game)
    if args.preset is not None and args.preset not in known:
        parser.error(f"unknown preset {args.preset!r} for {game}: choose {', '.join(known)}")
