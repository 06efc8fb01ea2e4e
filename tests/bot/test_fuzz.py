"""Issue 12's fuzz test: 20,000 random, stale, forged and garbage inputs from random users in
many chats through one TableManager on a real SQLite file (``bench/fuzz_host.py`` runs more)."""

from __future__ import annotations

from pathlib import Path

from bench.fuzz_host import fuzz


async def test_twenty_thousand_random_inputs_break_nothing(tmp_path: Path):
    report = await fuzz(str(tmp_path / "fuzz.sqlite3"), 20_000, seed=3)
    assert report.commands == 20_000
    assert report.escaped == 0, report.notes[:5]
    assert report.refused_changes == 0, report.notes[:5]
    assert report.private_leaks == 0, report.notes[:5]
    assert report.restore_mismatches == 0, report.notes[:5]
    assert report.refused > 5_000 and report.hands_dealt > 10 and report.actions_stored > 1_000
