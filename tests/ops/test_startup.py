"""``python -m bot`` with the platforms: a bad setting, a database that cannot be opened or a
platform that cannot be reached ends the program at once with one line on standard error and
exit code 2 — never a traceback, never a hang (the audit's bad port printed a traceback and
never exited: the store was open, and its worker thread kept the process alive)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from adapters import platforms as entry

ROOT = Path(__file__).parents[2]
HANG = 60.0


def start_bot(tmp_path: Path, **settings: str) -> tuple[int, list[str], float]:
    """Run ``python -m bot`` with a fake token and ``settings``: (exit code, lines on
    standard error, seconds taken). Killed as hung after `HANG` s: a bound that only a hang
    breaks — it takes about a second, but a loaded machine once took more than 5 s."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "DISCORD_"))}
    env.update(TELEGRAM_BOT_TOKEN="123456:FAKE-token-never-shown")
    env.update(BOT_DB=str(tmp_path / "bot.sqlite3"), TELEGRAM_API_BASE_URL="http://127.0.0.1:1/bot")
    env.update(settings)
    began = time.monotonic()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "bot"], env=env, cwd=ROOT, capture_output=True, timeout=HANG
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"python -m bot did not exit within {HANG:g} s: it hangs")
    assert "FAKE-token" not in done.stderr.decode() + done.stdout.decode()
    return done.returncode, done.stderr.decode().splitlines(), time.monotonic() - began


@pytest.mark.parametrize(
    ("settings", "named"),
    [
        ({"TELEGRAM_WEBHOOK_PORT": "notaport"}, "TELEGRAM_WEBHOOK_PORT=notaport"),
        ({"TELEGRAM_WEBHOOK_PORT": "70000"}, "TELEGRAM_WEBHOOK_PORT=70000"),
        ({"BOT_HEALTH_PORT": "eighty"}, "BOT_HEALTH_PORT=eighty"),
        ({"DISCORD_BOT_TOKEN": "d", "DISCORD_SHARDS": "all"}, "DISCORD_SHARDS=all"),
        ({"BOT_RETENTION_DAYS": "forever"}, "BOT_RETENTION_DAYS=forever"),
        ({"BOT_LOG_LEVEL": "loud"}, "BOT_LOG_LEVEL=loud: say one of DEBUG, INFO, WARNING"),
        ({"BOT_LOG_FORMAT": "xml"}, "BOT_LOG_FORMAT=xml: say text or json"),
        ({"BOT_METRICS": "yes"}, "BOT_METRICS=yes: say on or off"),
        ({"BOT_METRICS": "on"}, "BOT_METRICS=on: say off, or set BOT_HEALTH_PORT too"),
    ],
    ids=[
        "port not a number",
        "port out of range",
        "health port",
        "shards",
        "retention",
        "log level",
        "log format",
        "metrics",
        "metrics without a port",
    ],
)
def test_a_bad_setting_exits_2_with_one_line_before_opening_anything(
    tmp_path: Path, settings: dict[str, str], named: str
):
    code, lines, _ = start_bot(tmp_path, **settings)
    assert code == 2
    assert len(lines) == 1, lines
    assert lines[0].startswith("python -m bot: cannot start: ") and named in lines[0]
    assert not (tmp_path / "bot.sqlite3").exists()  # checked before the store was opened


def test_an_unreachable_postgresql_exits_2_with_one_line_and_no_password(tmp_path: Path):
    code, lines, _ = start_bot(tmp_path, BOT_DB="postgresql://cards:hunter2@127.0.0.1:1/x")
    assert code == 2
    assert lines == [
        "python -m bot: cannot start: the database postgresql://cards:***@127.0.0.1:1/x cannot "
        "be opened: [Errno 111] Connect call failed ('127.0.0.1', 1)"
    ]


def test_a_platform_failing_after_the_store_is_open_closes_it_and_exits_2(tmp_path: Path):
    """Telegram's API unreachable: the store was opened (and migrated) first; it is closed,
    so nothing keeps the process alive."""
    code, lines, _ = start_bot(tmp_path)
    assert code == 2
    assert len(lines) == 1, lines
    assert "Telegram's Bot API cannot be reached" in lines[0]
    assert (tmp_path / "bot.sqlite3").exists()


async def test_any_failure_after_the_store_is_open_closes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """Not a setting but a fault (here in restoring the tables): it goes up as it is, and the
    store is closed on the way — no worker thread is left to hold the process."""

    async def broken(self: object) -> None:
        raise RuntimeError("restore broke")

    before = set(threading.enumerate())
    monkeypatch.setattr(entry.TableManager, "restore", broken)
    with pytest.raises(RuntimeError, match="restore broke"):
        await entry.run_platforms({}, str(tmp_path / "f.sqlite3"), "en", asyncio.Event())
    for _ in range(100):  # the worker thread ends once the store is closed
        left = [t for t in set(threading.enumerate()) - before if not t.daemon and t.is_alive()]
        if not left:
            break
        await asyncio.sleep(0.01)
    assert left == []
