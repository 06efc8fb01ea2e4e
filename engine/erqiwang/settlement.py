"""二七王 settlement: what the declarer wins or loses under each `scoring` (in units).

Each function returns the declarer's amount; each defender gets the opposite of a third of it.
One deck (``decks = 1``) halves every point figure: bands, level widths, thresholds, and 200
becomes 100 (rules-erqiwang.md, Settlement).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

BONUS_POINTS_PER_VALUE = 40
"""``bonus_scoring: points``: each 关 of a declared 冲关 is worth 40 card points (seed 003)."""


@dataclass(frozen=True, slots=True)
class Figures:
    """The point figures of the settlement for one deck size."""

    total: int
    """All the card points: 200, or 100 with one deck."""
    tier: int
    """``tiered``: the width of a bid band and of a level (40; 20)."""
    online_single: int
    """``online``: the lowest bid paid at m = 1 (65; 35)."""
    online_double: int
    """``online``: the lowest bid paid at m = 2 (45; 25); below it m = 4."""
    small_sweep: int
    """``online``: 小光 for bids of at least ``online_single`` (40; 20)."""
    online_steps: tuple[int, int]
    """``online``: m more per full step above the bid, for bids from ``online_double`` on and
    for bids below it ((40, 20); (20, 10))."""


FIGURES = {
    2: Figures(
        total=200,
        tier=40,
        online_single=65,
        online_double=45,
        small_sweep=40,
        online_steps=(40, 20),
    ),
    1: Figures(
        total=100,
        tier=20,
        online_single=35,
        online_double=25,
        small_sweep=20,
        online_steps=(20, 10),
    ),
}


def defenders_win(points: int, bid: int) -> bool:
    """庄家下庄 iff the defenders reach the bid; a bid of 0 is lost to any points at all."""
    return points > 0 if bid == 0 else points >= bid


def tiered(bid: int, points: int, decks: int = 2) -> Fraction:
    """Seed 003: 3 · bid multiplier · (⌊|points − bid| / 40⌋ + 1), won or lost; the bid
    multiplier is 1 for 85–120, 2 for 45–80, 4 for 5–40, 8 for 0 (one deck: 20 in place of
    40, so 1 for 45–60, 2 for 25–40, 4 for 5–20)."""
    multiplier, levels = tiered_terms(bid, points, decks)
    amount = 3 * multiplier * levels
    return Fraction(-amount if defenders_win(points, bid) else amount)


def tiered_terms(bid: int, points: int, decks: int = 2) -> tuple[int, int]:
    """``tiered``'s bid multiplier and levels (see `tiered`)."""
    tier = FIGURES[decks].tier
    if bid == 0:
        multiplier = 8
    elif bid <= tier:
        multiplier = 4
    elif bid <= 2 * tier:
        multiplier = 2
    else:
        multiplier = 1
    return multiplier, abs(points - bid) // tier + 1


def online(bid: int, points: int, decks: int = 2) -> Fraction:
    """Seed 001: per defender m (1 for bids ≥ 65, 2 for 45–60, 4 for ≤ 40; one deck: ≥ 35,
    25–30, ≤ 20).

    Declarer wins: ×2 for 小光, ×4 for 大光 (no points). Declarer loses: m more for every full
    40 points above the bid (bids ≥ 45) or every full 20 (bids ≤ 40), uncapped (one deck: 20
    for bids ≥ 25, 10 for bids ≤ 20).
    """
    multiplier, factor, _ = online_terms(bid, points, decks)
    amount = 3 * multiplier * factor
    return Fraction(-amount if defenders_win(points, bid) else amount)


def online_terms(bid: int, points: int, decks: int = 2) -> tuple[int, int, str]:
    """``online``'s bid multiplier m, what each defender pays or gets in m (the sweep's ×2
    or ×4, or 1 + the full steps above the bid), and the sweep's name (see `online`)."""
    figures = FIGURES[decks]
    high = bid >= figures.online_double
    multiplier = 1 if bid >= figures.online_single else 2 if high else 4
    if defenders_win(points, bid):
        step = figures.online_steps[0] if high else figures.online_steps[1]
        return multiplier, 1 + (points - bid) // step, ""
    if points == 0:
        return multiplier, 4, "大光"
    if points <= small_sweep_limit(bid, decks):
        return multiplier, 2, "小光"
    return multiplier, 1, ""


def small_sweep_limit(bid: int, decks: int = 2) -> int:
    """小光: at most 40 points when the bid is ≥ 65 (one deck: 20 when ≥ 35), else half the
    bid rounded up to a multiple of 5."""
    figures = FIGURES[decks]
    if bid >= figures.online_single:
        return figures.small_sweep
    return -(-bid // 10) * 5


def proportional(bid: int, points: int, decks: int = 2) -> Fraction:
    """Seed 000 part 三: +3·(200 − bid)/5 when the declarer wins, −3·points/5 when it loses
    (one deck: 100 in place of 200)."""
    if defenders_win(points, bid):
        return Fraction(-3 * points, 5)
    return Fraction(3 * (FIGURES[decks].total - bid), 5)


SCORING = {"tiered": tiered, "online": online, "proportional": proportional}


@dataclass(frozen=True, slots=True)
class Reckoning:
    """How the declarer's amount came about, for people to follow: under ``tiered`` and
    ``online`` it is 3 × ``multiplier`` (the bid multiplier m) × ``levels`` (tiered: the
    levels; online: what each defender pays or gets in m — the sweep's ×2 or ×4, or 1 + the
    full steps above the bid); ``sweep`` names 小光 / 大光. ``proportional`` has neither (0):
    each defender pays or gets ``basis`` / 5 (the points left above the bid when the declarer
    wins, the defenders' points when it loses)."""

    scoring: str
    multiplier: int = 0
    levels: int = 0
    sweep: str = ""
    basis: int = 0


def reckoning(scoring: str, bid: int, points: int, decks: int = 2) -> Reckoning:
    """The terms behind ``SCORING[scoring](bid, points, decks)``."""
    if scoring == "tiered":
        return Reckoning(scoring, *tiered_terms(bid, points, decks))
    if scoring == "online":
        return Reckoning(scoring, *online_terms(bid, points, decks))
    won = not defenders_win(points, bid)
    return Reckoning(scoring, basis=FIGURES[decks].total - bid if won else points)


def stakes(declarer: int, amount: Fraction) -> list[Fraction]:
    """Per seat: the declarer's amount, and minus a third of it for each defender."""
    # One value for the three defenders (a fraction is never changed), made in one step.
    share = Fraction(-amount.numerator, 3 * amount.denominator)
    return [amount if seat == declarer else share for seat in range(4)]


def bonus_payments(bonuses: list[tuple[int, int]]) -> list[Fraction]:
    """冲关 at ×1 (``bonus_scoring: units``): each of the other three pays the owner its
    value."""
    paid = [Fraction(0)] * 4
    for owner, value in bonuses:
        for seat in range(4):
            paid[seat] += 3 * value if seat == owner else -value
    return paid


def bonus_card_points(points: int, bonuses: list[tuple[int, int]], declarer: int) -> int:
    """``bonus_scoring: points``: the defenders' points after the declared 冲关 (40 per 关 to
    the owner's side: a defender's adds, the declarer's takes away), never below 0."""
    moved = sum(
        -BONUS_POINTS_PER_VALUE * value if owner == declarer else BONUS_POINTS_PER_VALUE * value
        for owner, value in bonuses
    )
    return max(0, points + moved)
