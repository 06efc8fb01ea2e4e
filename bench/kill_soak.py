"""Kill -9 soak: console matches of both games killed at random moments and restarted on the
same file, until each settles; every match must end with the ledger of an uninterrupted run.

Run: ``python bench/kill_soak.py [--kills 50] [--seed 1]`` (kills per game)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from storage import Database  # noqa: E402


def console(db: Path, game: str, seed: int) -> list[str]:
    flags = ["--humans", "0", "--hands", "3", "--seed", str(seed), "--game", game]
    return [sys.executable, "-m", "bot", "console", *flags, "--db", str(db), "--lang", "en",
            "--ai-delay", "0"]  # fmt: skip


def stored_actions(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1) as connection:
            return int(connection.execute("SELECT count(*) FROM actions").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


async def ledger(db: Path) -> tuple[bool, list[tuple[str, str]]]:
    database = await Database.open(str(db))
    try:
        over = not await database.open_tables() and bool(await database.hands_of("console"))
        return over, sorted(await database.leaderboard("console"))
    finally:
        await database.close()


def soak(game: str, kills: int, rng: random.Random, folder: Path) -> tuple[int, int, int]:
    """(matches, kills made, matches whose ledger differed)."""
    matches = made = differing = 0
    while made < kills:
        seed = rng.randrange(10**6)
        clean = folder / f"clean-{game}-{seed}.sqlite3"
        subprocess.run(console(clean, game, seed), cwd=ROOT, capture_output=True, check=True)
        expected = asyncio.run(ledger(clean))[1]
        total = stored_actions(clean)
        killed = folder / f"killed-{game}-{seed}.sqlite3"
        for target in sorted(rng.randint(1, total - 1) for _ in range(min(5, kills - made))):
            quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
            process = subprocess.Popen(console(killed, game, seed), cwd=ROOT, **quiet)
            while process.poll() is None and stored_actions(killed) < target:
                time.sleep(0.002)
            if process.poll() is None:
                os.kill(process.pid, signal.SIGKILL)
                made += 1
            process.wait()
        # A run may end the match before its kill lands (the last target is near the end):
        # then the match is over, and running the console again would start a second one.
        if not asyncio.run(ledger(killed))[0]:
            subprocess.run(console(killed, game, seed), cwd=ROOT, capture_output=True,
                           check=True)  # fmt: skip
        over, got = asyncio.run(ledger(killed))
        matches += 1
        differing += not over or got != expected
    return matches, made, differing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=50, help="kills per game")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    folder = Path(tempfile.mkdtemp())
    started = time.perf_counter()
    for game in ("situan", "erqiwang"):
        matches, made, differing = soak(game, args.kills, rng, folder)
        print(f"{game}: {made} kills -9 over {matches} matches; matches settling differently "
              f"from an uninterrupted run: {differing}")  # fmt: skip
    print(f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
