"""Picture render times: hands of both games and settlements, drawn (not cached).

Run: ``python bench/pictures.py [-n 100] [--out DIR]``

Each hand is a different deal, so every render is a cache miss; the cached figure is the same
picture asked for again. ``--out DIR`` also writes sample pictures of both games for review.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.pictures import (
    HandPicture,
    SettlementPicture,
    SettlementRow,
    render_hand,
    render_settlement,
    render_table,
    samples,
)

Picture = TypeVar("Picture", HandPicture, SettlementPicture)


def timed(render: Callable[[Picture], bytes], picture: Picture) -> float:
    started = time.perf_counter()
    render(picture)
    return (time.perf_counter() - started) * 1000


def summary(name: str, times: list[float]) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return f"{name:<28} median {statistics.median(ordered):7.2f} ms   p99 {p99:7.2f} ms"


def settlement_variant(number: int) -> SettlementPicture:
    base = samples.situan_settlement()
    rows = tuple(
        SettlementRow(
            row.player, row.result, row.hand_total, row.match_total + number, row.bonus, row.winner
        )
        for row in base.rows
    )
    return SettlementPicture(f"{base.title} #{number}", rows, base.headings, base.footer)


def write_samples(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    pictures = {
        "hand-situan-39.png": render_hand(samples.situan_hand(1)),
        "hand-erqiwang-33.png": render_hand(samples.erqiwang_hand(1)),
        "table-situan.png": render_table(samples.situan_table()),
        "table-erqiwang.png": render_table(samples.erqiwang_table()),
        "settlement-situan.png": render_settlement(samples.situan_settlement()),
        "settlement-erqiwang.png": render_settlement(samples.erqiwang_settlement()),
    }
    for name, png in pictures.items():
        (out / name).write_bytes(png)
        print(f"wrote {out / name} ({len(png) // 1024} kB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=100, help="pictures of each kind (default 100)")
    parser.add_argument("--out", type=Path, help="also write sample pictures into this folder")
    arguments = parser.parse_args()
    count = arguments.n
    render_hand(samples.situan_hand(-1))  # load fonts and card sprites before timing
    render_hand(samples.erqiwang_hand(-1))
    print(f"{count} pictures of each kind, each drawn afresh (cache misses):")
    same = samples.situan_hand(0)
    rows = [
        (
            "hand 四团 (39 cards)",
            [timed(render_hand, samples.situan_hand(s)) for s in range(count)],
        ),
        (
            "hand 二七王 (33 cards)",
            [timed(render_hand, samples.erqiwang_hand(s)) for s in range(count)],
        ),
        ("settlement", [timed(render_settlement, settlement_variant(s)) for s in range(count)]),
        ("hand again (cache hit)", [timed(render_hand, same) for _ in range(count)]),
    ]
    for name, times in rows:
        print(summary(name, times))
    if arguments.out:
        write_samples(arguments.out)


if __name__ == "__main__":
    main()
