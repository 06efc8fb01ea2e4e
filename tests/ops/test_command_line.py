"""The command line as people and service managers use it, each in a real process: no token
and no terminal is one line and exit code 2 (a service would only crash-loop); ``--help``,
``--version`` and every subcommand's ``--help`` answer and start nothing, a token set or
not; ``serve`` and ``console`` name the two ways to run; a database address with another
scheme is refused at start, exit code 2; secrets are masked where they stand, whatever
their text; and the bot says once, at INFO, what it started with."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.ops.command_line import COMMANDS
from bot.ops.config import PREFIXES
from tests.telegram.fake_bot_api import FakeBotAPI

ROOT = Path(__file__).parents[2]
HANG = 60.0
"""Seconds after which a command counts as hung (what a test may wait; the real times are
well under a second or two, see each test)."""
TOKEN = "123456:FAKE-token-never-shown"


def clean_env(tmp_path: Path, **settings: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(PREFIXES)}
    env.update({"BOT_DB": str(tmp_path / "bot.sqlite3"), **settings})
    return env


def run(
    tmp_path: Path, *argv: str, stdin: int | None = subprocess.DEVNULL, **settings: str
) -> tuple[subprocess.CompletedProcess[str], float]:
    """``python -m bot ARGV`` with only ``settings`` of ours set: (what it did, seconds)."""
    began = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "bot", *argv],
        cwd=ROOT,
        stdin=stdin,
        env=clean_env(tmp_path, **settings),
        capture_output=True,
        text=True,
        timeout=HANG,
    )
    return done, time.monotonic() - began


def test_no_token_and_no_terminal_is_one_line_and_exit_2(tmp_path: Path):
    """What a container without ``-i``, systemd or nohup gives: standard input from
    ``/dev/null``. Before, the console's ``add_reader`` raised PermissionError (exit 1,
    which ``RestartPreventExitStatus=2`` lets through: a crash loop)."""
    done, _ = run(tmp_path, BOT_HEALTH_PORT="18081")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (
        "python -m bot: cannot start: no platform token set and no terminal: set "
        "TELEGRAM_BOT_TOKEN or DISCORD_BOT_TOKEN, or run in a terminal to play here\n"
    )
    assert not (tmp_path / "bot.sqlite3").exists()  # nothing was opened


def test_the_console_named_without_a_terminal_says_how_to_run_it(tmp_path: Path):
    done, _ = run(tmp_path, "console")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [
        "python -m bot: cannot start: no terminal to play in: run it in a terminal, or with "
        "--humans 0 to watch AI players"
    ]
    # With nobody to type, four AI players need no terminal.
    done, _ = run(tmp_path, "console", "--humans", "0", "--hands", "1", "--no-web", "--seed", "1")
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("token", [None, TOKEN], ids=["no token", "a token set"])
def test_help_lists_every_subcommand_and_starts_nothing(tmp_path: Path, token: str | None):
    """Before, with a token set, ``--help`` started the bot; without one it printed only
    the console's options. The API address is unreachable: had anything started, it would
    have failed with exit code 2."""
    settings = {"TELEGRAM_BOT_TOKEN": token, "TELEGRAM_API_BASE_URL": "http://127.0.0.1:1/bot"}
    done, _ = run(tmp_path, "--help", **{k: v for k, v in settings.items() if v})
    assert done.returncode == 0, done.stderr
    listed = done.stdout.split("\ncommands:\n", 1)[1]
    for command, line in COMMANDS.items():
        assert f"    {command}" in listed, command
        assert " ".join(line.split()[:4]) in " ".join(listed.split()), command
    assert not (tmp_path / "bot.sqlite3").exists()


def test_version_and_each_subcommands_help_start_nothing(tmp_path: Path):
    done, _ = run(tmp_path, "--version", TELEGRAM_BOT_TOKEN=TOKEN)
    assert done.returncode == 0 and done.stdout.startswith("python -m bot ")
    assert done.stdout.split()[-1][0].isdigit()  # the installed version, 0.1.0 today
    for command in COMMANDS:
        done, _ = run(tmp_path, command, "--help", TELEGRAM_BOT_TOKEN=TOKEN)
        assert done.returncode == 0, (command, done.stderr)
        assert done.stdout.startswith(f"usage: python -m bot {command} "), command
    assert not (tmp_path / "bot.sqlite3").exists()


def test_serve_is_a_command_and_needs_a_token(tmp_path: Path):
    """``cardbot serve`` was "unrecognized arguments"."""
    done, _ = run(tmp_path, "serve")
    assert done.returncode == 2
    assert done.stderr == (
        "python -m bot: cannot start: no platform token set: set TELEGRAM_BOT_TOKEN or "
        "DISCORD_BOT_TOKEN\n"
    )
    done, _ = run(
        tmp_path, "serve", TELEGRAM_BOT_TOKEN=TOKEN, TELEGRAM_API_BASE_URL="http://127.0.0.1:1/bot"
    )
    assert done.returncode == 2
    assert "Telegram's Bot API cannot be reached" in done.stderr and "FAKE" not in done.stderr


@pytest.mark.parametrize("password", ["p", "bot", "cardbot"])
def test_a_short_password_is_masked_in_its_field_and_nowhere_else(tmp_path: Path, password: str):
    """Before, every occurrence of the password's text was replaced: with ``bot``,
    ``python -m *** migrate: postgresql://card***:***@…``; with ``p``, ``***ython -m …``."""
    address = f"postgresql://cardbot:{password}@127.0.0.1:1/cardbot"
    done, _ = run(tmp_path, "migrate", BOT_DB=address)
    assert done.returncode == 1
    assert done.stderr == (
        "python -m bot migrate: postgresql://cardbot:***@127.0.0.1:1/cardbot: "
        "[Errno 111] Connect call failed ('127.0.0.1', 1)\n"
    )
    done, _ = run(tmp_path, "config", BOT_DB=address)
    assert "BOT_DB=postgresql://cardbot:***@127.0.0.1:1/cardbot" in done.stdout.splitlines()


@pytest.mark.parametrize("argv", [["config"], ["migrate"], ["serve"]])
def test_a_database_of_another_kind_is_refused_at_start(tmp_path: Path, argv: list[str]):
    """``mysql://`` was accepted, then opened as a SQLite file of that name."""
    done, _ = run(tmp_path, *argv, BOT_DB="mysql://cards:hunter2@x/y", TELEGRAM_BOT_TOKEN=TOKEN)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "python -m bot: cannot start: BOT_DB=mysql://cards:***@x/y: say a SQLite file path (or "
        "sqlite:PATH) or a postgresql://user:password@host/db address (or postgres://)"
    ]
    done, _ = run(tmp_path, "migrate", "--db", "mysql://x/y")
    assert done.returncode == 2 and "mysql: is not a database the bot keeps" in done.stderr


def test_a_sqlite_address_names_its_file(tmp_path: Path):
    for address in (f"sqlite:{tmp_path}/a.sqlite3", f"sqlite:///{tmp_path}/b.sqlite3"):
        done, _ = run(tmp_path, "migrate", "--db", address)
        assert done.returncode == 0, done.stderr
    assert (tmp_path / "a.sqlite3").is_file() and (tmp_path / "b.sqlite3").is_file()


async def test_serve_says_once_at_info_what_it_started_with(tmp_path: Path):
    """The bot's own start-up line: its version, the store (its password masked), the
    platforms and how each receives, the web table, the health endpoint; then SIGTERM ends
    it with exit code 0."""
    api = FakeBotAPI()
    base = await api.start()
    env = clean_env(
        tmp_path, TELEGRAM_BOT_TOKEN=TOKEN, TELEGRAM_API_BASE_URL=base, BOT_AI_WORKERS="0"
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "serve",
        env=env,
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        assert process.stderr is not None
        seen: list[str] = []
        async with asyncio.timeout(HANG):
            while not any(" started: " in line for line in seen):
                line = (await process.stderr.readline()).decode()
                assert line, seen
                seen.append(line)
        process.send_signal(signal.SIGTERM)
        async with asyncio.timeout(HANG):
            rest = (await process.stderr.read()).decode()
            code = await process.wait()
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
        await api.stop()
    (started,) = [line for line in seen if " started: " in line]
    assert " INFO bot table=- cardbot " in started
    assert (
        f"started: store sqlite {tmp_path / 'bot.sqlite3'} (0 open tables), platforms telegram "
        "(polling), web table off, health off, AI workers 0"
    ) in started
    assert code == 0 and "Traceback" not in rest
    assert "FAKE-token" not in "".join(seen) + rest
