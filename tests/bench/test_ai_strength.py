"""bench/ai_strength.py: the whole-hand 二七王 comparison puts the level under test in each
seat in turn against the same deal with the baseline in that seat."""

from bench.ai_strength import erqiwang_whole


def test_the_same_level_in_the_seat_gains_nothing_on_any_deal_or_seat():
    gains = erqiwang_whole(range(3), "easy", "easy", None, "classic")
    assert gains == [0.0] * 12


def test_a_bidder_in_the_seat_gains_over_a_seat_that_only_passes(capsys):
    # 托管 passes every auction, so with 托管 in all four seats every deal is void; a normal
    # player in one seat declares where its hand is worth it and wins points there.
    gains = erqiwang_whole(range(10), "normal", "tuoguan", None, "classic")
    assert len(gains) == 40 and sum(gains) > 0
    out = capsys.readouterr().out
    assert "tuoguan in the seat declares   0.0% ± 0.0% (0/40)" in out
    assert "void (all passed) 100.0% ± 0.0% (40/40)" in out
