"""The operators' commands on both back ends: ``python -m bot migrate``, ``export-db`` and
``import-db``; a failure is one line, with no traceback and no password."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from storage import postgres as postgres_back_end
from storage import sqlite as sqlite_back_end
from storage.opening import address_secrets, masked_address
from tests.pg_server import SUPERUSER, PostgresServer

LATEST = {
    "sqlite": len(sqlite_back_end.MIGRATIONS),
    "postgresql": len(postgres_back_end.MIGRATIONS),
}


def test_migrate_migrates_an_empty_database_and_prints_its_version(
    back_end: str, empty_address: str, capsys: pytest.CaptureFixture[str]
):
    assert main(["migrate", "--db", empty_address]) == 0
    out = capsys.readouterr().out
    assert out == f"{empty_address}: schema version {LATEST[back_end]}\n"
    assert main(["migrate", "--db", empty_address]) == 0  # again: nothing left to do
    assert capsys.readouterr().out == out


def test_migrate_takes_the_database_from_bot_db(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    path = tmp_path / "from-env.sqlite3"
    monkeypatch.setenv("BOT_DB", str(path))
    assert main(["migrate"]) == 0
    assert capsys.readouterr().out == f"{path}: schema version {LATEST['sqlite']}\n"
    assert path.exists()


def test_python_m_bot_migrate_exits_0_then_non_zero_with_one_line(tmp_path: Path):
    path = tmp_path / "cli.sqlite3"
    done = subprocess.run(
        [sys.executable, "-m", "bot", "migrate", "--db", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{path}: schema version {LATEST['sqlite']}\n"
    missing = tmp_path / "no" / "such" / "dir" / "x.sqlite3"
    done = subprocess.run(
        [sys.executable, "-m", "bot", "migrate", "--db", str(missing)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    assert done.stdout == "" and len(done.stderr.splitlines()) == 1
    assert "Traceback" not in done.stderr and str(missing) in done.stderr


def test_a_failing_postgres_address_never_shows_its_password(
    postgres_server: PostgresServer, capsys: pytest.CaptureFixture[str]
):
    address = f"postgresql://{SUPERUSER}:s3cr%40t@127.0.0.1:{postgres_server.port}/no_such_db"
    assert main(["migrate", "--db", address]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.splitlines()) == 1
    assert "s3cr" not in captured.err and "Traceback" not in captured.err
    assert f"postgresql://{SUPERUSER}:***@127.0.0.1:{postgres_server.port}/no_such_db" in (
        captured.err
    )
    assert "no_such_db" in captured.err


def test_masking_an_address():
    assert masked_address("postgresql://u:p%40ss@h:5432/db?sslmode=require&password=q") == (
        "postgresql://u:***@h:5432/db?sslmode=require&password=***"
    )
    assert masked_address("postgres://u@h/db") == "postgres://u@h/db"
    assert masked_address("/var/lib/cardbot/a.sqlite3") == "/var/lib/cardbot/a.sqlite3"
    assert sorted(address_secrets("postgresql://u:p%40ss@h/db?password=q")) == [
        "p%40ss",
        "p@ss",
        "q",
    ]
    assert address_secrets("/tmp/x:y@z") == []


def test_export_then_import_through_the_commands(
    tmp_path: Path, postgres_server: PostgresServer, capsys: pytest.CaptureFixture[str]
):
    source = str(tmp_path / "source.sqlite3")
    assert main(["migrate", "--db", source]) == 0
    import asyncio

    from storage import open_database
    from tests.storage.test_transfer import fill

    async def filled() -> None:
        db = await open_database(source)
        await fill(db)
        await db.close()

    asyncio.run(filled())
    capsys.readouterr()
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert main(["export-db", str(first), "--db", source]) == 0
    counts = (
        "2 meta, 4 player, 3 table, 4 hand, 10 action, 6 ledger, 3 subscription, "
        "2 achievement, 3 rating, 2 rating_change"
    )
    assert capsys.readouterr().out == f"{source} → {first}: {counts}\n"
    target = postgres_server.database()
    assert main(["import-db", str(first), "--db", target]) == 0
    assert capsys.readouterr().out == f"{first} → {target}: {counts}\n"
    assert main(["export-db", str(second), "--db", target]) == 0
    assert second.read_bytes() == first.read_bytes()
    capsys.readouterr()
    assert main(["import-db", str(first), "--db", target]) == 1  # not into a full database
    err = capsys.readouterr().err
    assert "not empty" in err and len(err.splitlines()) == 1
    assert main(["import-db", str(tmp_path / "none.jsonl"), "--db", target]) == 1
    assert "no file" in capsys.readouterr().err
