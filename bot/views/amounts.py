"""Amounts of units as people read them, the same in the settlement's text and its picture:
``+3``, ``-0.5``, ``+1.25``; a share no decimal writes exactly stays a fraction (``+1/3``)."""

from __future__ import annotations

from fractions import Fraction


def signed_amount(value: Fraction | float | str) -> str:
    amount = Fraction(value)
    if isinstance(value, float):  # a drawn sample's float: the share it stands for
        amount = amount.limit_denominator(1000)
    if amount == 0:
        return "0"
    sign = "+" if amount > 0 else "-"
    size = abs(amount)
    return sign + (_decimal(size) or str(size))


def _decimal(size: Fraction) -> str | None:
    """``size`` as an exact decimal (halves and quarters of a 墩's ½ are), or None."""
    denominator = size.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    if denominator != 1:
        return None
    whole, rest = divmod(size.numerator, size.denominator)
    if rest == 0:
        return str(whole)
    digits = ""
    while rest:
        rest *= 10
        digit, rest = divmod(rest, size.denominator)
        digits += str(digit)
    return f"{whole}.{digits}"
