"""bench/strength_parts.py: a long strength count is run in parts that resume where they
stopped, and summed from the parts' logs."""

import random
from pathlib import Path

from bench.ai_strength import paired
from bench.strength_parts import part_log, run, summed

SITUAN = """四团 hard vs normal: hard team wins  {p} ± 11.1% ({w}/{n}) of decided hands, 50 deals × 2 (deals {a}–{b})
decision time hard   : median   60.5 ms, p90  300.6 ms, p99  301.5 ms, max  303.4 ms over 5000
"""  # noqa: E501
ERQIWANG = """二七王 hard vs normal (50 deals, each played 3 ways; deals {a}–{b}):
  hard declarer vs normal defenders wins  64.0% ± 13.3% ({h}/50)
  normal declarer vs normal defenders wins  50.0% ± 13.9% ({m}/50)
  normal declarer vs hard defenders wins  34.0% ± 13.1% ({d}/50)
decision time hard   : median  153.1 ms, p90  601.4 ms, p99  615.9 ms, max  626.7 ms over 4059
"""


def test_the_parts_add_up_to_one_count_over_all_their_deals(tmp_path: Path):
    part_log(tmp_path, "situan", 0).write_text(SITUAN.format(p="62.2%", w=46, n=74, a=0, b=49))
    part_log(tmp_path, "situan", 50).write_text(SITUAN.format(p="60.5%", w=46, n=76, a=50, b=99))
    (tmp_path / "situan_100.part").write_text("a part under way counts for nothing")
    lines = summed("situan", tmp_path)
    assert lines[0].startswith("deals 0–49: 46/74 | hard median   60.5 ms")
    assert lines[-1] == "total over 100 deals: hard team wins 92/150 = 61.3% ± 7.8%"


def test_the_erqiwang_parts_add_up_each_way_and_both_gains(tmp_path: Path):
    part_log(tmp_path, "erqiwang", 0).write_text(ERQIWANG.format(a=0, b=49, h=32, m=25, d=17))
    part_log(tmp_path, "erqiwang", 50).write_text(ERQIWANG.format(a=50, b=99, h=30, m=21, d=18))
    *parts, total, gains = summed("erqiwang", tmp_path)
    assert parts[1].startswith("deals 50–99: 30 / 21 / 18 | hard median  153.1 ms")
    assert total.startswith("total over 100 deals: declarer wins — hard 62/100 = 62.0%")
    assert "normal 46/100 = 46.0%" in total and "hard defenders 35/100 = 35.0%" in total
    assert gains == (
        "hard as declarer +16.0% ± 13.6%; hard as defenders +11.0% ± 13.5% fewer "
        "declarer wins (unpaired)"
    )


def test_a_run_plays_only_the_parts_not_yet_logged_and_stops_when_told(tmp_path: Path):
    for first in (0, 50):
        part_log(tmp_path, "situan", first).write_text("done")
    (tmp_path / "stop").touch()
    run("situan", tmp_path, upto=150, step=50)  # would play 100–149, but is told to stop
    assert sorted(p.name for p in tmp_path.iterdir()) == ["situan_0.log", "situan_50.log", "stop"]
    (tmp_path / "stop").unlink()
    run("situan", tmp_path, upto=100, step=50)  # every part logged: nothing to play
    assert not list(tmp_path.glob("*.part"))


def test_a_run_skips_the_deals_an_earlier_total_covers(tmp_path: Path):
    part_log(tmp_path, "erqiwang", 0).write_text(
        ERQIWANG.replace("50 deals", "100 deals").format(a=0, b=99, h=60, m=50, d=30)
    )
    part_log(tmp_path, "erqiwang", 100).write_text(ERQIWANG.format(a=100, b=149, h=1, m=1, d=1))
    run("erqiwang", tmp_path, upto=150, step=50)  # 50–99 is in the first: nothing to play
    assert not list(tmp_path.glob("*.part"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["erqiwang_0.log", "erqiwang_100.log"]


def test_a_part_under_way_in_another_run_is_left_to_it(tmp_path: Path):
    part_log(tmp_path, "situan", 0).write_text("done")
    (tmp_path / "situan_50.part").write_text("another run is counting deals 50–99")
    run("situan", tmp_path, upto=100, step=50)  # 0 logged, 50 claimed: nothing to play
    assert (tmp_path / "situan_50.part").read_text() == "another run is counting deals 50–99"
    assert not part_log(tmp_path, "situan", 50).exists()


def gain_lines(declaring: list[int], defending: list[int]) -> str:
    """A part's two paired gains as bench/ai_strength.py prints them."""
    return (
        f"  hard as declarer: {paired(declaring)} declarer wins\n"
        f"  hard as defenders: {paired(defending)} fewer declarer wins\n"
    )


def test_the_paired_gains_of_the_parts_add_up_to_the_paired_gain_of_all_their_deals(
    tmp_path: Path,
):
    rng = random.Random(7)
    declaring = [rng.choice((-1, 0, 0, 1, 1)) for _ in range(150)]
    defending = [rng.choice((-1, 0, 1, 1)) for _ in range(150)]
    for first in (0, 50, 100):
        part = slice(first, first + 50)
        text = ERQIWANG.format(a=first, b=first + 49, h=30, m=25, d=20)
        part_log(tmp_path, "erqiwang", first).write_text(
            text + gain_lines(declaring[part], defending[part])
        )
    *_, unpaired_line, paired_line = summed("erqiwang", tmp_path)
    assert paired_line == (
        f"hard as declarer {paired(declaring)}; hard as defenders "
        f"{paired(defending)} fewer declarer wins (paired)"
    )
    assert unpaired_line.endswith("(unpaired)")  # still given too


def test_without_every_parts_paired_gains_no_paired_total_is_given(tmp_path: Path):
    part_log(tmp_path, "erqiwang", 0).write_text(
        ERQIWANG.format(a=0, b=49, h=30, m=25, d=20) + gain_lines([1, 0] * 25, [0, 1] * 25)
    )
    part_log(tmp_path, "erqiwang", 50).write_text(ERQIWANG.format(a=50, b=99, h=1, m=1, d=1))
    assert summed("erqiwang", tmp_path)[-1].endswith("(unpaired)")
