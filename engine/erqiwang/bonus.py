"""冲关: the bonus for holding three or four jokers, extended by a chain of trump pairs.

Value (seed 001's table): 3 jokers → 1, 4 jokers → 3; then +1 for a pair of 正7; +1 for each
pair of 副7 (needs the 正7 pair); +1 for a pair of 正2 (needs a 副7 pair); +1 for each pair of
副2 (needs the 正2 pair). With no trump suit only the joker part exists.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.actions import DeclareBonus
from engine.cards import BJ, LJ, Card
from engine.erqiwang.events import BonusDeclared, ErqiwangEvent
from engine.erqiwang.phases import BURY, PLAY
from engine.errors import IllegalAction

if TYPE_CHECKING:
    from engine.erqiwang.hand import ErqiwangHand

_NAMES = {
    3: ("冲关", "主7冲关", "全7冲关", "主2冲关", "皇后"),
    4: ("大冲关", "主7大冲关", "全7大冲关", "主2大冲关", "皇上"),
}


@dataclass(frozen=True)
class Bonus:
    value: int
    name: str
    joker_value: int
    cards: tuple[Card, ...]
    """The qualifying cards, shown to the table when declared."""


def bonus_of(hand: Sequence[Card], trump: str | None) -> Bonus | None:
    """The 冲关 a hand holds under this trump choice, or None."""
    if hand.count(LJ) + hand.count(BJ) < 3:  # most hands: asked at every step of the window
        return None
    jokers = [c for c in hand if not c.suit]  # `is_joker`, without a call per card
    counts = Counter(hand)
    joker_value = 1 if len(jokers) == 3 else 3
    value, step = joker_value, 0
    shown: list[Card] = sorted(jokers, key=lambda c: c.rank)
    if trump is not None:
        main7 = [c for c in counts if c.rank == "7" and c.suit == trump and counts[c] == 2]
        side7 = [c for c in counts if c.rank == "7" and c.suit != trump and counts[c] == 2]
        main2 = [c for c in counts if c.rank == "2" and c.suit == trump and counts[c] == 2]
        side2 = [c for c in counts if c.rank == "2" and c.suit != trump and counts[c] == 2]
        # Each link needs the one before it; 副7 and 副2 count every pair held.
        for pairs, each_pair_counts in ((main7, False), (side7, True), (main2, False)):
            if not pairs:
                break
            value += len(pairs) if each_pair_counts else 1
            step += 1
            shown += [c for c in pairs for _ in range(2)]
        else:
            if side2:
                value += len(side2)
                step += 1
                shown += [c for c in side2 for _ in range(2)]
    return Bonus(value, _NAMES[len(jokers)][step], joker_value, tuple(shown))


def window_open(hand: ErqiwangHand, seat: int) -> bool:
    """冲关 may be declared from trump naming (declarer: after burying) to the first card."""
    if hand.has_played[seat] or seat in hand.bonuses:
        return False
    if seat == hand.declarer:
        return hand.phase == PLAY
    return hand.phase in (BURY, PLAY)


def check_declare(hand: ErqiwangHand, action: DeclareBonus) -> Bonus:
    hand.require_running()
    seat = action.seat
    if seat in hand.bonuses:
        raise IllegalAction("no_bonus", "冲关 was already declared", seat=seat, declared=True)
    if not window_open(hand, seat):
        early = not hand.trump_named or (seat == hand.declarer and hand.phase != PLAY)
        raise IllegalAction(
            "wrong_phase",
            "冲关 is declared after trump is named and before your first card",
            bonus_window="before" if early else "after",
            declarer=seat == hand.declarer,
        )
    bonus = bonus_of(hand.hands[seat], hand.trump)
    if bonus is None:
        raise IllegalAction("no_bonus", "you hold no 冲关 (three or four jokers)", seat=seat)
    return bonus


def declare(hand: ErqiwangHand, action: DeclareBonus) -> list[ErqiwangEvent]:
    bonus = check_declare(hand, action)
    events: list[ErqiwangEvent] = []
    hand.own_action(action.seat, events)
    record(hand, action.seat, bonus, events)
    return events


def record(hand: ErqiwangHand, seat: int, bonus: Bonus, events: list[ErqiwangEvent]) -> None:
    hand.bonuses[seat] = bonus
    events.append(BonusDeclared(seat, bonus.name, bonus.value, bonus.cards))


def declare_for_table(hand: ErqiwangHand, seat: int, events: list[ErqiwangEvent]) -> None:
    """The table acting for a seat declares its bonus whenever the window is open."""
    if window_open(hand, seat):
        bonus = bonus_of(hand.hands[seat], hand.trump)
        if bonus is not None:
            record(hand, seat, bonus, events)
