"""The settlement's terms (`Reckoning`) are the very numbers its amount is made of, so the
settlement text can show them (rules-erqiwang.md, Settlement)."""

from fractions import Fraction

import pytest

from engine.erqiwang.settlement import SCORING, defenders_win, reckoning


@pytest.mark.parametrize("decks", [2, 1])
@pytest.mark.parametrize("scoring", ["tiered", "online", "proportional"])
def test_the_reckoning_gives_the_amount_the_settlement_pays(scoring, decks):
    total = 200 if decks == 2 else 100
    for bid in range(0, total // 5 * 3 + 1, 5):
        for points in range(0, total + 41, 5):
            amount = SCORING[scoring](bid, points, decks)
            terms = reckoning(scoring, bid, points, decks)
            sign = -1 if defenders_win(points, bid) else 1
            if scoring == "proportional":
                assert amount == sign * Fraction(3 * terms.basis, 5)
            else:
                assert amount == sign * 3 * terms.multiplier * terms.levels


def test_the_seed_examples_read_as_levels():
    # bid 80 (m = 2): 120 points is two levels lost (-12), 35 two levels won (+12)
    assert reckoning("tiered", 80, 120).multiplier == 2
    assert reckoning("tiered", 80, 120).levels == 2
    assert reckoning("tiered", 80, 35).levels == 2
    assert reckoning("online", 80, 0).sweep == "大光"
    assert reckoning("online", 80, 40).sweep == "小光"
