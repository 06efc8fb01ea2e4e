"""``python -m bot backup-db FILE`` while the bot plays: the copy is the database as one
moment left it, the bot goes on meanwhile, and the copy restores — opened as it is, or
exported and imported into a fresh database of either back end."""

from __future__ import annotations

import asyncio
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.__main__ import main
from storage import open_database
from tests.pg_server import PostgresServer

ROOT = Path(__file__).parents[2]


def rows(path: Path, sql: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as connection:
        return connection.execute(sql).fetchall()


def ledger(path: Path) -> list[tuple[object, ...]]:
    return rows(path, "SELECT chat, hand, user, name, amount FROM ledger ORDER BY rowid")


def ledger_count(path: Path) -> int:
    return len(ledger(path)) if path.exists() else 0


def wait_for_ledger(path: Path, more_than: int, player: subprocess.Popen[bytes]) -> None:
    """Until the playing process has settled hands past ``more_than`` ledger rows."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert player.poll() is None, "the AI table stopped playing"
        try:
            if ledger_count(path) > more_than:
                return
        except sqlite3.OperationalError:  # the file is being created
            pass
        time.sleep(0.02)
    pytest.fail(f"no ledger rows past {more_than} within 60 s")


async def open_games(path: Path) -> list[str]:
    db = await open_database(str(path))
    try:
        return [table.game for table in await db.open_tables()]
    finally:
        await db.close()


def table_names(path: Path) -> list[str]:
    return sorted(r[0] for r in rows(path, "SELECT name FROM sqlite_master WHERE type='table'"))


@pytest.fixture
def playing(tmp_path: Path):
    """Four AI players at a 四团 table, playing hand after hand into a SQLite file."""
    live = tmp_path / "live.sqlite3"
    command = [sys.executable, "-m", "bot", "console", "--game", "situan", "--humans", "0",
               "--hands", "100000", "--seed", "3", "--db", str(live)]  # fmt: skip
    player = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL)
    try:
        yield live, player
    finally:
        player.send_signal(signal.SIGTERM)
        try:
            player.wait(timeout=20)
        except subprocess.TimeoutExpired:
            player.kill()
            player.wait()


def test_a_backup_during_play_is_a_moment_of_the_database_and_restores(
    playing, tmp_path: Path, postgres_server: PostgresServer, capsys: pytest.CaptureFixture[str]
):
    live, player = playing
    wait_for_ledger(live, 8, player)
    copy = tmp_path / "backup.sqlite3"
    assert main(["backup-db", "--db", str(live), str(copy)]) == 0
    kept = ledger(copy)
    line = capsys.readouterr().out
    assert line.startswith(f"{live} → {copy}: ") and f"{len(kept)} ledger" in line
    wait_for_ledger(live, len(kept), player)  # the bot went on playing meanwhile
    player.send_signal(signal.SIGTERM)
    assert player.wait(timeout=20) == 0

    # The same tables and version; the ledger and the hands as they stood at one moment.
    assert table_names(copy) == table_names(live)
    version = "SELECT version FROM schema_version"
    assert rows(copy, version) == rows(live, version)
    assert len(kept) >= 8 and ledger(live)[: len(kept)] == kept
    hands = "SELECT id, chat, match, number, start FROM hands ORDER BY id"
    assert rows(live, hands)[: len(rows(copy, hands))] == rows(copy, hands)
    assert rows(copy, "PRAGMA integrity_check") == [("ok",)]

    # Opened as it is, the copy holds the running table.
    assert asyncio.run(open_games(copy)) == ["situan"]

    # Exported, and imported into a fresh database of each back end: the same rows.
    exported = tmp_path / "backup.jsonl"
    assert main(["export-db", "--db", str(copy), str(exported)]) == 0
    for fresh in (str(tmp_path / "fresh.sqlite3"), postgres_server.database()):
        assert main(["import-db", "--db", fresh, str(exported)]) == 0
        again = tmp_path / "again.jsonl"
        assert main(["export-db", "--db", fresh, str(again)]) == 0
        assert again.read_text() == exported.read_text()
        again.unlink()


def test_a_backup_never_overwrites_and_fails_in_one_line(tmp_path: Path):
    live = tmp_path / "live.sqlite3"
    assert main(["migrate", "--db", str(live)]) == 0
    taken = tmp_path / "taken.sqlite3"
    taken.write_text("something precious")
    for target, reason in ((taken, "exists already"), (tmp_path / "new.sqlite3", None)):
        done = subprocess.run(
            [sys.executable, "-m", "bot", "backup-db", "--db", str(live), str(target)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        if reason is None:
            assert done.returncode == 0, done.stderr
            continue
        assert done.returncode == 1 and done.stdout == ""
        assert len(done.stderr.splitlines()) == 1 and reason in done.stderr
    assert taken.read_text() == "something precious"
    assert not list(tmp_path.glob(".*partial"))
    missing = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot",
            "backup-db",
            "--db",
            str(tmp_path / "none"),
            str(tmp_path / "x"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert missing.returncode == 1 and "no database file" in missing.stderr
    assert not (tmp_path / "none").exists()  # not created by the attempt


def test_a_postgres_backup_is_one_snapshot_that_import_db_restores(
    postgres_server: PostgresServer, tmp_path: Path
):
    source = postgres_server.database()
    small = tmp_path / "small.sqlite3"
    assert main(["migrate", "--db", str(small)]) == 0
    seed = tmp_path / "seed.jsonl"
    assert main(["export-db", "--db", str(small), str(seed)]) == 0
    assert main(["import-db", "--db", source, str(seed)]) == 0
    backup = tmp_path / "pg.jsonl"
    assert main(["backup-db", "--db", source, str(backup)]) == 0
    assert backup.read_text() == seed.read_text()
    assert main(["backup-db", "--db", source, str(backup)]) == 1  # never over a file
    restored = postgres_server.database()
    assert main(["import-db", "--db", restored, str(backup)]) == 0
