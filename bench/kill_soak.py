"""Kill -9 soaks.

Console matches of both games killed at random moments and restarted on the same file, until
each settles; every match must end with the ledger of an uninterrupted run.
Run: ``python bench/kill_soak.py [--kills 50] [--seed 1]`` (kills per game)

``--cluster``: the failover soak, the long form of tests/cluster/test_failover.py (which kills
once at each kind of point): two ``python -m bot`` processes on one PostgreSQL server of its
own (as the tests start one: tests/pg_server.py), the owner of running tables killed at random
moments (every fourth first stopped until its tables are taken, then woken, then killed);
every hand must settle as uninterrupted. Prints the kills, the hands settled and the takeover
times. Run: ``python bench/kill_soak.py --cluster [--kills 20] [--seed 2026]``
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
            subprocess.run(console(killed, game, seed), cwd=ROOT, capture_output=True, check=True)
        over, got = asyncio.run(ledger(killed))
        matches += 1
        differing += not over or got != expected
    return matches, made, differing


def cluster(kills: int, seed: int) -> None:
    from tests.cluster.test_failover import at_random, soak
    from tests.pg_server import FAST_FOR_TESTS, running_server

    started = time.perf_counter()
    with running_server(FAST_FOR_TESTS) as server, tempfile.TemporaryDirectory() as logs:
        print(asyncio.run(soak(server, Path(logs), at_random(kills), seed)))
    print(f"{time.perf_counter() - started:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--cluster", action="store_true", help="the failover soak: two processes on PostgreSQL"
    )
    parser.add_argument(
        "--kills",
        type=int,
        default=None,
        help="kills per game (50); with --cluster, kills in all (20)",
    )
    parser.add_argument("--seed", type=int, default=None, help="1; with --cluster, 2026")
    args = parser.parse_args()
    if args.cluster:
        cluster(20 if args.kills is None else args.kills, 2026 if args.seed is None else args.seed)
        return
    args.kills = 50 if args.kills is None else args.kills
    rng = random.Random(1 if args.seed is None else args.seed)
    folder = Path(tempfile.mkdtemp())
    started = time.perf_counter()
    for game in ("situan", "erqiwang"):
        matches, made, differing = soak(game, args.kills, rng, folder)
        print(
            f"{game}: {made} kills -9 over {matches} matches; matches settling differently "
            f"from an uninterrupted run: {differing}"
        )
    print(f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
