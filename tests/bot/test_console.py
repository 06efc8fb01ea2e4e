"""The console as a real program: Ctrl-C and SIGTERM stop it at once with everything saved
and no traceback; a resumed run shows the human's hand again; --set takes effect; an unknown
--lang or --preset is an error that lists the choices."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from storage import Database

ROOT = Path(__file__).resolve().parents[2]


def console(db: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "bot", "console", "--game", "erqiwang", "--seed", "5",
            "--db", str(db), "--lang", "en", "--ai-delay", "0", *extra]  # fmt: skip


def started(db: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        console(db, *extra),
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def read_until(process: subprocess.Popen[str], marker: str, limit: float = 60) -> str:
    seen = ""
    deadline = time.monotonic() + limit
    assert process.stdout is not None
    while marker not in seen:
        assert time.monotonic() < deadline, seen[-2000:]
        line = process.stdout.readline()
        assert line, seen[-2000:]
        seen += line
    return seen


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_mid_hand_stops_at_once_with_no_traceback_and_the_next_run_resumes(
    tmp_path: Path, signum: int
):
    db = tmp_path / "c.sqlite3"
    process = started(db)
    read_until(process, "Your hand")
    process.send_signal(signum)
    _, errors = process.communicate(timeout=20)
    assert process.returncode == 0 and "Traceback" not in errors, errors
    again = started(db)
    seen = read_until(again, "Your hand")
    assert "Table restored after a restart." in seen
    again.send_signal(signal.SIGINT)
    _, errors = again.communicate(timeout=20)
    assert again.returncode == 0 and "Traceback" not in errors, errors


def stored_settings(db: Path) -> dict:
    """The one table's stored settings in the console's database."""

    async def read() -> dict:
        database = await Database.open(str(db))
        try:
            (table,) = await database.open_tables()
            return table.settings
        finally:
            await database.close()

    return asyncio.run(read())


def test_set_takes_effect(tmp_path: Path):
    db = tmp_path / "s.sqlite3"
    process = started(db, "--set", "turn_seconds=30", "--set", "stake=2")
    read_until(process, "Your hand")
    process.send_signal(signal.SIGINT)
    process.communicate(timeout=20)

    settings = stored_settings(db)
    assert settings["options"]["turn_seconds"] == 30 and settings["table_options"]["stake"] == "2"


@pytest.mark.parametrize(
    ("flag", "value", "listed"),
    [("--lang", "fr", "zh-Hans, zh-Hant, en"), ("--preset", "foo", "classic")],
)
def test_an_unknown_language_or_preset_is_an_error_listing_the_choices(
    tmp_path, flag, value, listed
):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot",
            "console",
            "--game",
            "erqiwang",
            flag,
            value,
            "--db",
            str(tmp_path / "x.sqlite3"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and listed in done.stderr and "Traceback" not in done.stderr


def test_a_show_with_the_partners_consent_in_the_console(tmp_path: Path):
    """``--set show_consent=partner``: the human asks, the AI partner answers, and the group
    lines say who asked, the answer and the hand shown."""
    db = tmp_path / "show.sqlite3"
    command = console(db, "--set", "show_consent=partner")
    command[command.index("erqiwang")] = "situan"
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    read_until(process, "Your hand")
    assert process.stdin is not None
    process.stdin.write("/show\n")
    process.stdin.flush()
    seen = read_until(process, "hand is shown to the table")
    process.send_signal(signal.SIGINT)
    process.communicate(timeout=20)
    asked = "[group] Player asks AI 3 for a 亮牌 (show); AI 3 answers."
    agreed = "[group] AI 3 agrees to Player's 亮牌 (show): they see each other's hands, and AI 3"
    assert asked in seen and agreed in seen
    assert seen.index(asked) < seen.index(agreed)
    assert "Your partner AI 3 holds:" in seen  # the pair see each other's hands
    assert stored_settings(db)["options"]["show_consent"] == "partner"
