"""The console with ``--pictures`` writes the hand and the settlement as PNG files next to
the database and prints their paths; without it, none."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[2]


def run(db: Path, *extra: str) -> str:
    command = [sys.executable, "-m", "bot", "console", "--game", "situan", "--seed", "3",
               "--db", str(db), "--lang", "en", "--humans", "0", "--hands", "1",
               *extra]  # fmt: skip
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_pictures_writes_the_settlement_as_png_next_to_the_database(tmp_path: Path):
    out = run(tmp_path / "table.sqlite3", "--pictures")
    picture = tmp_path / "table-settlement.png"
    assert f"[picture] {picture}" in out
    with Image.open(picture) as image:
        assert image.format == "PNG"


def test_without_pictures_no_file_is_written(tmp_path: Path):
    out = run(tmp_path / "table.sqlite3")
    assert "[picture]" not in out
    assert not list(tmp_path.glob("*.png"))
