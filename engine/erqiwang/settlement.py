"""二七王 settlement: what the declarer wins or loses under each `scoring` (in units).

Each function returns the declarer's amount; each defender gets the opposite of a third of it.
"""

from __future__ import annotations

from fractions import Fraction


def defenders_win(points: int, bid: int) -> bool:
    """庄家下庄 iff the defenders reach the bid; a bid of 0 is lost to any points at all."""
    return points > 0 if bid == 0 else points >= bid


def tiered(bid: int, points: int) -> Fraction:
    """Seed 003: 3 · bid multiplier · (⌊|points − bid| / 40⌋ + 1), won or lost."""
    if bid == 0:
        multiplier = 8
    elif bid <= 40:
        multiplier = 4
    elif bid <= 80:
        multiplier = 2
    else:
        multiplier = 1
    levels = abs(points - bid) // 40 + 1
    amount = Fraction(3 * multiplier * levels)
    return -amount if defenders_win(points, bid) else amount


def online(bid: int, points: int) -> Fraction:
    """Seed 001: per defender m (1 for bids ≥ 65, 2 for 45–60, 4 for ≤ 40).

    Declarer wins: ×2 for 小光, ×4 for 大光 (no points). Declarer loses: m more for every full
    40 points above the bid (bids ≥ 45) or every full 20 (bids ≤ 40), uncapped.
    """
    multiplier = 1 if bid >= 65 else 2 if bid >= 45 else 4
    if defenders_win(points, bid):
        step = 40 if bid >= 45 else 20
        per_defender = multiplier * (1 + (points - bid) // step)
        return Fraction(-3 * per_defender)
    if points == 0:
        factor = 4  # 大光
    elif points <= small_sweep_limit(bid):
        factor = 2  # 小光
    else:
        factor = 1
    return Fraction(3 * multiplier * factor)


def small_sweep_limit(bid: int) -> int:
    """小光: at most 40 points when the bid is ≥ 65, else half the bid rounded up to a 5."""
    if bid >= 65:
        return 40
    return -(-bid // 10) * 5


def proportional(bid: int, points: int) -> Fraction:
    """Seed 000 part 三: +3·(200 − bid)/5 when the declarer wins, −3·points/5 when it loses."""
    if defenders_win(points, bid):
        return Fraction(-3 * points, 5)
    return Fraction(3 * (200 - bid), 5)


SCORING = {"tiered": tiered, "online": online, "proportional": proportional}


def stakes(declarer: int, amount: Fraction) -> list[Fraction]:
    """Per seat: the declarer's amount, and minus a third of it for each defender."""
    return [amount if seat == declarer else -amount / 3 for seat in range(4)]


def bonus_payments(bonuses: list[tuple[int, int]]) -> list[Fraction]:
    """冲关 at ×1: each of the other three pays the owner its value."""
    paid = [Fraction(0)] * 4
    for owner, value in bonuses:
        for seat in range(4):
            paid[seat] += 3 * value if seat == owner else -value
    return paid
