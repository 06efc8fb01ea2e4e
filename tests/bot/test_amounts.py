"""Amounts read the same in a settlement's text and in its picture."""

from __future__ import annotations

from fractions import Fraction

from bot.pictures.settlement import signed
from bot.views.amounts import signed_amount
from bot.views.shared_texts import money


def test_halves_and_quarters_are_decimals_and_other_shares_stay_fractions():
    shown = [signed_amount(Fraction(n, d)) for n, d in ((-1, 2), (3, 2), (-7, 4), (1, 8), (1, 3))]
    assert shown == ["-0.5", "+1.5", "-1.75", "+0.125", "+1/3"]
    assert [signed_amount(x) for x in (0, 5, "-3/2", "2")] == ["0", "+5", "-1.5", "+2"]


def test_the_text_and_the_picture_write_the_same_amount():
    for amount in (Fraction(-1, 2), Fraction(5, 2), Fraction(-2, 3), Fraction(4)):
        assert signed(amount).replace("−", "-") == money(amount)
    assert signed(Fraction(-1, 2)) == "−0.5"  # a true minus sign in the picture
