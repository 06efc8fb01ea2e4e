"""One settings object (`bot.ops.config`): every variable read in one place and checked at start.
Per variable, a good value is taken and a bad one stops ``python -m bot`` with one line
naming the variable, its value and what it may be — exit code 2, no traceback. The README's
settings table lists exactly these variables; unknown ones are warned about; ``python -m bot
config`` prints the settings in effect with the secrets masked."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from bot.ops.config import PREFIXES, VARIABLES, load
from bot.pictures.fonts import REGULAR_FONT, face_chain, use_extra_fonts

ROOT = Path(__file__).parents[2]
FONT = str(REGULAR_FONT)

GOOD: dict[str, tuple[str, Any]] = {
    "TELEGRAM_BOT_TOKEN": ("123456:AAH-x_y", "123456:AAH-x_y"),
    "TELEGRAM_API_BASE_URL": ("http://127.0.0.1:8081/bot", "http://127.0.0.1:8081/bot"),
    "TELEGRAM_WEBHOOK_URL": ("https://cards.example/telegram", "https://cards.example/telegram"),
    "TELEGRAM_WEBHOOK_LISTEN": ("127.0.0.1", "127.0.0.1"),
    "TELEGRAM_WEBHOOK_PORT": (" 8444 ", 8444),
    "TELEGRAM_WEBHOOK_SECRET": ("s3cret_-token", "s3cret_-token"),
    "TELEGRAM_MINI_APP": ("cards_table", "cards_table"),
    "TELEGRAM_CALLS_PER_SECOND": ("12.5", 12.5),
    "DISCORD_BOT_TOKEN": ("MTA.discord-token", "MTA.discord-token"),
    "DISCORD_SHARDS": ("2,3/4", ((2, 3), 4)),
    "BOT_DB": ("postgresql://cards:pw@db:5432/cards", "postgresql://cards:pw@db:5432/cards"),
    "BOT_LANG": ("zh-TW", "zh-Hant"),
    "BOT_RETENTION_DAYS": ("0.5", 0.5),
    "BOT_AI_WORKERS": (" 6 ", 6),
    "BOT_PROCESS_ID": ("bot-1", "bot-1"),
    "BOT_PEER_URL": ("http://10.0.0.5:8443", "http://10.0.0.5:8443"),
    "BOT_LEASE_SECONDS": ("30", 30.0),
    "BOT_TIMER_STEP": ("0.05", 0.05),
    "BOT_HEALTH_PORT": ("8080", 8080),
    "BOT_HEALTH_LISTEN": ("::1", "::1"),
    "BOT_METRICS": ("OFF", False),
    "BOT_LOG_LEVEL": ("debug", "DEBUG"),
    "BOT_LOG_FORMAT": ("JSON", "json"),
    "WEB_PUBLIC_URL": ("https://cards.example/", "https://cards.example"),
    "WEB_LISTEN": ("127.0.0.1", "127.0.0.1"),
    "WEB_PORT": ("9000", 9000),
    "WEB_CONNECTIONS": ("5000", 5000.0),
    "WEB_PER_ADDRESS": ("100", 100.0),
    "WEB_LINK_SECRET": ("s" * 20, "s" * 20),
    "WEB_LINK_SECONDS": ("600", 600.0),
    "WEB_INITDATA_MAX_AGE": ("3600", 3600.0),
    "CARDBOT_PICTURE_FONTS": (FONT, (REGULAR_FONT,)),
}
BAD: dict[str, str] = {
    "TELEGRAM_BOT_TOKEN": "not a token",
    "TELEGRAM_API_BASE_URL": "ftp://127.0.0.1/bot",
    "TELEGRAM_WEBHOOK_URL": "http://cards.example/telegram",
    "TELEGRAM_WEBHOOK_LISTEN": "every address!",
    "TELEGRAM_WEBHOOK_PORT": "abc",
    "TELEGRAM_WEBHOOK_SECRET": "has spaces in it",
    "TELEGRAM_MINI_APP": "my app!",
    "TELEGRAM_CALLS_PER_SECOND": "5000",
    "DISCORD_BOT_TOKEN": "two words",
    "DISCORD_SHARDS": "all",
    "BOT_DB": "postgresql://cards:hunter2@db:port/cards",
    "BOT_LANG": "fr",
    "BOT_RETENTION_DAYS": "forever",
    "BOT_AI_WORKERS": "two",
    "BOT_PROCESS_ID": "bot one",
    "BOT_PEER_URL": "10.0.0.5:8443",
    "BOT_LEASE_SECONDS": "1",
    "BOT_TIMER_STEP": "0",
    "BOT_HEALTH_PORT": "70000",
    "BOT_HEALTH_LISTEN": "local host",
    "BOT_METRICS": "yes",
    "BOT_LOG_LEVEL": "loud",
    "BOT_LOG_FORMAT": "xml",
    "WEB_PUBLIC_URL": "http://cards.example",
    "WEB_LISTEN": "every address!",
    "WEB_PORT": "0",
    "WEB_CONNECTIONS": "5",
    "WEB_PER_ADDRESS": "0",
    "WEB_LINK_SECRET": "short",
    "WEB_LINK_SECONDS": "never",
    "WEB_INITDATA_MAX_AGE": "10",
    "CARDBOT_PICTURE_FONTS": "/no/such/font.ttf",
}
NAMES = [variable.name for variable in VARIABLES]


@pytest.fixture
def environment(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    """No setting of the machine's own leaks in; the fonts are put back afterwards."""
    for name in list(os.environ):
        if name.startswith(PREFIXES):
            monkeypatch.delenv(name)
    try:
        yield monkeypatch
    finally:
        use_extra_fonts(())


def test_every_variable_has_a_good_and_a_bad_value_here():
    assert sorted(GOOD) == sorted(NAMES) == sorted(BAD)


@pytest.mark.parametrize("name", NAMES)
def test_a_good_value_is_taken(name: str):
    text, value = GOOD[name]
    settings = load({name: text})
    assert settings[name] == value
    assert name in settings.given


@pytest.mark.parametrize("name", NAMES)
def test_a_bad_value_stops_the_start_with_one_line_and_exit_code_2(
    name: str, environment: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    variable = next(v for v in VARIABLES if v.name == name)
    environment.setenv(name, BAD[name])
    assert main(["config"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    (line,) = err.splitlines()
    shown = "***" if variable.secret else BAD[name][:32]
    if name == "BOT_DB":
        shown = "postgresql://cards:***@db:port/c"  # the password never shown
    assert line.startswith(f"python -m bot: cannot start: {name}={shown}")
    assert f": say {variable.allowed}" in line or name in ("BOT_DB", "CARDBOT_PICTURE_FONTS")
    assert "hunter2" not in err and "Traceback" not in err


@pytest.mark.parametrize("command", [[], ["console"], ["migrate"], ["config"]])
def test_every_command_checks_the_settings_first(
    command: list[str],
    environment: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
):
    environment.setenv("BOT_LANG", "klingon")
    environment.setenv("BOT_DB", str(tmp_path / "never.sqlite3"))
    assert main(command) == 2
    assert capsys.readouterr().err.startswith("python -m bot: cannot start: BOT_LANG=klingon")
    assert not (tmp_path / "never.sqlite3").exists()


def test_a_long_value_is_cut_short(environment: pytest.MonkeyPatch, capsys):
    environment.setenv("BOT_LOG_LEVEL", "x" * 10_000)
    assert main(["config"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert len(line) < 200 and "x" * 32 + "…" in line


def test_metrics_need_the_health_port(environment: pytest.MonkeyPatch, capsys):
    environment.setenv("BOT_METRICS", "on")
    assert main(["config"]) == 2
    assert "BOT_METRICS=on: say off, or set BOT_HEALTH_PORT too" in capsys.readouterr().err
    environment.setenv("BOT_HEALTH_PORT", "9090")
    assert main(["config"]) == 0


def test_unknown_variables_are_warned_about_and_ignored(environment, capsys):
    environment.setenv("BOT_LANGUAGE", "en")
    environment.setenv("TELEGRAM_TOKEN", "123:abc")
    environment.setenv("DISCORD_SHARD", "0/2")
    environment.setenv("BOTANY", "not ours")  # no prefix of ours (BOT_ needs the _)
    assert main(["config"]) == 0
    out, err = capsys.readouterr()
    assert err.splitlines() == [
        "python -m bot: warning: BOT_LANGUAGE is not a setting (did you mean BOT_LANG?);"
        " it is ignored",
        "python -m bot: warning: DISCORD_SHARD is not a setting (did you mean DISCORD_SHARDS?);"
        " it is ignored",
        "python -m bot: warning: TELEGRAM_TOKEN is not a setting (did you mean"
        " TELEGRAM_BOT_TOKEN?); it is ignored",
    ]
    assert "BOT_LANG=zh-Hans  # default: `zh-Hans`" in out.splitlines()


def test_config_prints_every_setting_with_the_secrets_masked(environment, capsys, tmp_path):
    font = tmp_path / "extra.otf"
    font.write_bytes(REGULAR_FONT.read_bytes())
    environment.setenv("TELEGRAM_BOT_TOKEN", "123456:AAH-secret")
    environment.setenv("TELEGRAM_WEBHOOK_SECRET", "webhook-secret")
    environment.setenv("BOT_DB", "postgresql://cards:hunter2@db/cards")
    environment.setenv("DISCORD_SHARDS", "0-1/4")
    environment.setenv("BOT_RETENTION_DAYS", "7")
    environment.setenv("CARDBOT_PICTURE_FONTS", str(font))
    assert main(["config"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and "AAH-secret" not in out and "hunter2" not in out
    assert "webhook-secret" not in out
    lines = out.splitlines()
    assert [line.split("=", 1)[0] for line in lines] == NAMES
    assert "TELEGRAM_BOT_TOKEN=***" in lines and "TELEGRAM_WEBHOOK_SECRET=***" in lines
    assert "BOT_DB=postgresql://cards:***@db/cards" in lines
    assert "DISCORD_SHARDS=0,1/4" in lines and "BOT_RETENTION_DAYS=7" in lines
    assert "DISCORD_BOT_TOKEN=  # default: unset" in lines
    assert "TELEGRAM_WEBHOOK_PORT=8443  # default: `8443`" in lines
    assert f"CARDBOT_PICTURE_FONTS={font}" in lines
    assert face_chain("regular")[-1].path == font  # the pictures try it, after the others


def test_python_m_bot_with_a_bad_setting_prints_one_line_and_no_traceback(tmp_path: Path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(PREFIXES)}
    env.update(TELEGRAM_WEBHOOK_PORT="abc", BOT_DB=str(tmp_path / "x.sqlite3"))
    done = subprocess.run(
        [sys.executable, "-m", "bot"], env=env, cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (
        "python -m bot: cannot start: TELEGRAM_WEBHOOK_PORT=abc: say a port number, 1 to 65535\n"
    )


def readme_table() -> list[list[str]]:
    """The rows of the README's settings table, cells stripped."""
    text = (ROOT / "README.md").read_text()
    section = text.split("\n## Settings\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return [[cell.strip() for cell in row.strip("|").split(" | ")] for row in rows]


def test_the_readme_table_is_the_settings_object():
    rows = readme_table()
    assert [row[0] for row in rows] == [f"`{name}`" for name in NAMES]
    for row, variable in zip(rows, VARIABLES, strict=True):
        assert row[1:] == [variable.meaning, variable.allowed, variable.default], variable.name


def test_every_variable_the_code_reads_is_a_setting():
    """Nothing outside bot/ops/config.py reads the environment (tests and benchmarks aside):
    the two entry points (the command line and serving the platforms) hand all of it to it."""
    entries = (ROOT / "bot" / "__main__.py", ROOT / "adapters" / "platforms.py")
    readers = []
    for package in ("engine", "bot", "adapters", "storage"):
        for path in (ROOT / package).rglob("*.py"):
            if path == ROOT / "bot" / "ops" / "config.py" or path in entries:
                continue
            source = path.read_text()
            if re.search(r"os\.environ\b|getenv\(", source):
                readers.append(str(path.relative_to(ROOT)))
    assert readers == []
    for entry in entries:  # the whole environment, never one variable of it
        assert re.findall(r"os\.environ(?:\.get|\[)", entry.read_text()) == [], entry
