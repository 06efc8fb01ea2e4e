"""The end of a 四团 hand: 双关, three out, or decided early; and its settlement."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from engine.events import HandEnded
from engine.situan.combos import BJ_INDEX, LJ_INDEX, RANK_COUNT
from engine.situan.events import SituanEvent
from engine.situan.outcome import how_it_ends, scored, team_of
from engine.situan.phases import OVER
from engine.situan.result import TEAM_NAMES, Dun, SituanResult, dun_units

if TYPE_CHECKING:
    from engine.situan.hand import SituanHand


def duns_in_counts(counts: list[int]) -> list[Dun]:
    """What a dealt hand earns as 墩: same-rank sizes ≥ 7, then ``LJ3`` or ``KINGS4``."""
    duns: list[Dun] = [counts[r] for r in range(RANK_COUNT - 2) if counts[r] >= 7]
    if counts[LJ_INDEX] == 3:
        duns.append("KINGS4" if counts[BJ_INDEX] == 1 else "LJ3")
    return duns


def check_end(hand: SituanHand, events: list[SituanEvent]) -> bool:
    """End the hand if it is over (双关, three out, or decided); whether it ended."""
    ending = how_it_ends(
        hand.finish,
        hand.holding(),
        hand.captured,
        hand.hand_points,
        hand.table_points,
        hand.round_seat,
        hand.bottom_points,
        hand.carry,
        hand.rules.early_end,
    )
    if ending is None:
        return False
    end(hand, *ending, events)
    return True


def end(hand: SituanHand, ended_by: str, winner: int | None, events: list[SituanEvent]) -> None:
    if hand.round_seat is not None:
        # The round still open goes to its last player, who has just gone out.
        hand.captured[hand.round_seat] += hand.table_points
        hand.table_points = 0
    hand.phase = OVER
    hand.over = True
    hand.result = settle(hand, ended_by, winner)
    events.append(HandEnded(hand.result))


def settle(hand: SituanHand, ended_by: str, winner: int | None) -> SituanResult:
    finish = hand.finish + hand.holding()
    score = scored(
        ended_by, winner, finish, hand.captured, hand.hand_points, hand.bottom_points, hand.carry
    )
    winner = score.winner
    rules = hand.rules
    duns = hand.dealt_duns if rules.dun_counted == "dealt" else hand.played_duns
    multiplier = rules.show_multiplier if hand.show_by is not None else 1
    stakes = [Fraction(0)] * 4
    if winner is not None:
        stakes = [Fraction(multiplier if team_of(s) == winner else -multiplier) for s in range(4)]
    bonus = [Fraction(0)] * 4
    for owner in range(4):
        if not duns[owner]:
            continue  # no 墩, nothing moves: most seats most hands (Fraction sums are slow)
        units = sum(dun_units(d) for d in duns[owner]) * rules.dun_value
        for seat in range(4):
            bonus[seat] += 3 * units if seat == owner else -units
    return SituanResult(
        finish=tuple(finish),
        ended_by=ended_by,
        captured=tuple(hand.captured),
        team_points=score.team_points,
        winner=None if winner is None else TEAM_NAMES[winner],
        carry=score.carry,
        dun=tuple(tuple(d) for d in duns),
        shown=None if hand.show_by is None else (hand.show_by, hand.revealed),
        stakes=tuple(stakes),
        bonus=tuple(bonus),
        total=tuple(a + b for a, b in zip(stakes, bonus, strict=True)),
        bottom_points=hand.bottom_points,
        remaining=score.remaining,
        carried_in=hand.carry,
    )
