"""A long ``hard``–``normal`` strength count, run and summed in parts of duplicate deals.

Run: ``python bench/strength_parts.py run --game situan|erqiwang --logs DIR [--upto 2000]
[--step 50]`` plays the parts not yet logged in DIR, one after another, each in a fresh
process (``bench/ai_strength.py --first-deal K --deals STEP --pairings hard-normal``), so a
count can be stopped at any time (``touch DIR/stop``: after the part under way) and resumed
later. Each run claims a part by creating its ``.part`` file, so two runs on one DIR share
its parts between two cores; a ``.part`` left by a killed run is deleted before resuming.
``python bench/strength_parts.py sum --game G --logs DIR`` adds the logged parts up: 四团,
the hard team's wins over decided hands; 二七王, the three declarer win counts and the two
gains; both with 95% intervals (normal approximation) and the hard player's decision times
per part. The 二七王 gains are given twice: unpaired, from the three win counts alone, and
paired, from each part's paired gain (its mean and interval, printed to 0.1%, give back the
sums of its per-deal differences and of their squares, whole numbers, for parts of up to a few
hundred deals), as one count of all the deals would give it: the same deal played both ways,
so the luck of the cards cancels.
"""

from __future__ import annotations

import argparse
import math
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script: the project's packages

from bench.ai_strength import paired  # noqa: E402


def part_log(logs: Path, game: str, first: int) -> Path:
    return logs / f"{game}_{first}.log"


def counted(game: str, logs: Path) -> set[int]:
    """The deals the logged parts cover (a part may span several steps: an earlier total)."""
    deals: set[int] = set()
    for _, text in logged_parts(game, logs):
        for m in re.finditer(r"deals (\d+)–(\d+)\)", text):
            deals.update(range(int(m.group(1)), int(m.group(2)) + 1))
    return deals


def run(game: str, logs: Path, upto: int, step: int) -> None:
    logs.mkdir(parents=True, exist_ok=True)
    done = counted(game, logs)
    for first in range(0, upto, step):
        if (logs / "stop").exists():
            return
        log = part_log(logs, game, first)
        if log.exists() or first in done:
            continue
        command = [sys.executable, "-u", str(ROOT / "bench" / "ai_strength.py"), "--game", game,
                   "--deals", str(step), "--first-deal", str(first),
                   "--pairings", "hard-normal", "--bidding", "0"]  # fmt: skip
        unfinished = log.with_suffix(".part")
        try:  # claimed by creating it: a second run on the same DIR takes the next part
            out = unfinished.open("x")
        except FileExistsError:
            continue  # under way in another run (one left by a killed run: delete it first)
        with out:
            subprocess.run(command, stdout=out, stderr=subprocess.STDOUT, check=True, cwd=ROOT)
        unfinished.rename(log)  # only a whole part counts


def _interval(wins: int, n: int) -> str:
    p = wins / n
    return f"{wins}/{n} = {p:.1%} ± {1.96 * math.sqrt(p * (1 - p) / n):.1%}"


def _gain(a: int, b: int, n: int) -> str:
    p, q = a / n, b / n
    half = 1.96 * math.sqrt(p * (1 - p) / n + q * (1 - q) / n)
    return f"{p - q:+.1%} ± {half:.1%}"


GAINS = ("declarer", "defenders")
"""The two 二七王 gains of a part's log: ``hard as declarer: +4.0% ± 7.8% declarer wins``."""


def differences(text: str, side: str) -> list[int] | None:
    """The per-deal differences behind a part's paired gain as ``side``, in no order (None
    for a log without it). Each is −1, 0 or 1, so the printed mean and interval, rounded to
    0.1%, still give back their sum and the sum of their squares, hence how many of each."""
    gain = re.search(rf"hard as {side}: ([+-]?\d+\.\d)% ± (\d+\.\d)%", text)
    deals = re.search(r"\((\d+) deals, each played", text)
    if gain is None or deals is None:
        return None
    n = int(deals.group(1))
    mean, half = float(gain.group(1)) / 100, float(gain.group(2)) / 100
    spread = half * math.sqrt(n) / 1.96
    total, nonzero = round(mean * n), round((n - 1) * spread**2 + n * mean**2)
    ups, downs = (nonzero + total) // 2, (nonzero - total) // 2
    return [1] * ups + [-1] * downs + [0] * (n - ups - downs)


def logged_parts(game: str, logs: Path) -> list[tuple[int, str]]:
    found = [
        (int(m.group(1)), f)
        for f in logs.glob(f"{game}_*.log")
        if (m := re.fullmatch(rf"{game}_(\d+)\.log", f.name))
    ]
    return [(first, f.read_text()) for first, f in sorted(found)]


def summed(game: str, logs: Path) -> list[str]:
    """The lines of the sum: one per part, then the totals."""
    lines, deals = [], 0
    wins = decided = 0
    counts = [0, 0, 0]
    per_deal: dict[str, list[list[int] | None]] = {side: [] for side in GAINS}
    for first, text in logged_parts(game, logs):
        times = re.search(r"decision time hard\s*: (.*)", text)
        took = times.group(1).strip() if times else "?"
        if game == "situan":
            m = re.search(r"\((\d+)/(\d+)\) of decided hands, (\d+) deals", text)
            assert m, f"part {first}: no result"
            w, n = int(m.group(1)), int(m.group(2))
            count = int(m.group(3))
            wins, decided, deals = wins + w, decided + n, deals + count
            lines.append(f"deals {first}–{first + count - 1}: {w}/{n} | hard {took}")
        else:
            found = [
                re.search(rf"{who} wins .*\((\d+)/(\d+)\)", text)
                for who in (
                    "hard declarer vs normal defenders",
                    "normal declarer vs normal defenders",
                    "normal declarer vs hard defenders",
                )
            ]
            assert all(found), f"part {first}: no result"
            part = [int(m.group(1)) for m in found if m]
            counts = [c + p for c, p in zip(counts, part, strict=True)]
            n = int(found[0].group(2)) if found[0] else 0
            deals += n
            for side in GAINS:
                per_deal[side].append(differences(text, side))
            lines.append(
                f"deals {first}–{first + n - 1}: {part[0]} / {part[1]} / {part[2]} | hard {took}"
            )
    if game == "situan" and decided:
        lines.append(f"total over {deals} deals: hard team wins {_interval(wins, decided)}")
    elif deals:
        hard, normal, defended = counts
        lines.append(
            f"total over {deals} deals: declarer wins — hard {_interval(hard, deals)}, "
            f"normal {_interval(normal, deals)}, normal against hard defenders "
            f"{_interval(defended, deals)}"
        )
        declaring, defending = _gain(hard, normal, deals), _gain(normal, defended, deals)
        lines.append(
            f"hard as declarer {declaring}; hard as defenders {defending} fewer "
            "declarer wins (unpaired)"
        )
        if all(p is not None for side in GAINS for p in per_deal[side]):  # every part has both
            declaring, defending = (
                paired([g for p in per_deal[side] if p for g in p]) for side in GAINS
            )
            lines.append(
                f"hard as declarer {declaring}; hard as defenders {defending} fewer "
                "declarer wins (paired)"
            )
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("what", choices=("run", "sum"))
    parser.add_argument("--game", required=True, choices=("situan", "erqiwang"))
    parser.add_argument("--logs", required=True, type=Path)
    parser.add_argument("--upto", type=int, default=2000, help="deals in all")
    parser.add_argument("--step", type=int, default=50, help="deals per part")
    args = parser.parse_args(argv)
    if args.what == "run":
        run(args.game, args.logs, args.upto, args.step)
    for line in summed(args.game, args.logs):
        print(line)


if __name__ == "__main__":
    main()
