"""The end of a 二七王 hand: the last trick and the bottom (抓底), and the settlement."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.erqiwang.bonus import bonus_of
from engine.erqiwang.order import TRUMP
from engine.erqiwang.result import NO_AMOUNTS, ErqiwangResult, SettledBonus
from engine.erqiwang.settlement import (
    SCORING,
    bonus_card_points,
    bonus_payments,
    defenders_win,
    reckoning,
    stakes,
)
from engine.erqiwang.shapes import shape_of

if TYPE_CHECKING:
    from engine.erqiwang.hand import ErqiwangHand


def settle(hand: ErqiwangHand) -> ErqiwangResult:
    assert hand.declarer is not None and hand.bid is not None
    declarer, bid = hand.declarer, hand.bid
    # Before burying (a surrender) the bottom is still the one dealt.
    bottom = hand.buried or hand.deal.bottom
    bottom_points = sum(c.points for c in bottom)
    multiplier = 0
    last_winner: int | None = None
    bonuses = settled_bonuses(hand)
    values = [(b.seat, b.value) for b in bonuses]
    moved = 0
    if hand.surrendered:
        points = bid
        declarer_won = False
    else:
        assert hand.best is not None
        last_winner = hand.best[0]
        multiplier = bottom_multiplier(hand, last_winner)
        points = hand.trick_points_for_defenders + bottom_points * multiplier
        if hand.rules.bonus_scoring == "points" and values:
            # 冲关 as card points count before the win check and the settlement.
            moved = bonus_card_points(points, values, declarer) - points
            points += moved
        declarer_won = not defenders_win(points, bid)
    amount = SCORING[hand.rules.scoring](bid, points, hand.rules.decks)
    per_seat = stakes(declarer, amount)
    # A surrender pays the joker part as units under either bonus_scoring.
    paid_apart = hand.rules.bonus_scoring == "units" or hand.surrendered
    # Without a 冲关 paid apart, nothing is added to the stakes (most hands).
    bonus = bonus_payments(values) if paid_apart and values else NO_AMOUNTS
    total = (
        per_seat if bonus is NO_AMOUNTS else [a + b for a, b in zip(per_seat, bonus, strict=True)]
    )
    return ErqiwangResult(
        declarer=declarer,
        bid=bid,
        trump="none" if hand.trump_named and hand.trump is None else hand.trump,
        surrendered=hand.surrendered,
        defender_points=points,
        bottom_points=bottom_points,
        bottom_multiplier=multiplier,
        last_trick_winner=last_winner,
        declarer_won=declarer_won,
        bonus_points=moved,
        bonuses=tuple(bonuses),
        stakes=tuple(per_seat),
        bonus=tuple(bonus),
        total=tuple(total),
        bottom=tuple(bottom),
        reckoning=reckoning(hand.rules.scoring, bid, points, hand.rules.decks),
    )


def bottom_multiplier(hand: ErqiwangHand, winner: int) -> int:
    """What the buried points count for the defenders: 0 unless they won the last trick
    (with trumps, where ``bottom_needs_trump``), else by the winning play's largest part."""
    if winner == hand.declarer:
        return 0
    cards = dict(hand.trick)[winner]
    if hand.rules.bottom_needs_trump and any(hand.order.suit[c] != TRUMP for c in cards):
        return 0
    largest = shape_of(cards, hand.order).largest_component_cards()
    if hand.rules.bottom_multiplier == "doubling":
        return int(2 ** (largest // 2))
    return largest


def settled_bonuses(hand: ErqiwangHand) -> list[SettledBonus]:
    if hand.surrendered:
        # The hand ends before anyone could show more: every holder of three or four
        # jokers is paid the joker part, declared or not.
        settled = []
        for seat in range(4):
            bonus = bonus_of(hand.hands[seat], None)
            if bonus is not None:
                settled.append(SettledBonus(seat, bonus.name, bonus.joker_value))
        return settled
    return [SettledBonus(seat, b.name, b.value) for seat, b in sorted(hand.bonuses.items())]
