"""Issue 55, item 3 in the console: ``--practice`` makes its table a practice table — a hint on
the player's turn, no time limit — kept as the table's setting."""

from __future__ import annotations

import signal
from pathlib import Path

from tests.bot.test_console import read_until, started, stored_settings


def test_the_console_practice_table_gives_hints_and_keeps_the_setting(tmp_path: Path):
    db = tmp_path / "p.sqlite3"
    process = started(db, "--practice", "--no-web")
    assert process.stdin is not None
    try:
        read_until(process, "Your turn")
        process.stdin.write("/hint\n")
        process.stdin.flush()
        seen = read_until(process, "Why: ")
        assert "Hint: " in seen
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=20)
    assert stored_settings(db)["table_options"]["practice_mode"] == "on"
