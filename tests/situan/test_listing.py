"""The plays a seat's `Holding` keeps as it plays, against the plays its cards make, found
rank by rank: listing cuts them out of kept lists, and must list the same plays in the same
order, for every seat after every action of many games (random plays, time-outs, 托管)."""

from __future__ import annotations

import random

from engine.actions import Auto, Pass, Play, Timeout
from engine.situan import Rules, SituanHand
from engine.situan.combos import (
    BJ_INDEX,
    COMBO_BY_RANK_SIZE,
    COMBO_BY_RANKS,
    FOUR_KINGS,
    LJ_INDEX,
    RANK_COUNT,
    Combo,
)
from engine.situan.legal import COMBO_OF_PLAY
from tests.situan.helpers import play, table

EVERY_COMBO = [None, *COMBO_BY_RANKS.values()]


def found_rank_by_rank(counts: list[int], last: Combo | None) -> list[Combo]:
    """Every combination a seat with these counts may play after ``last`` (None: a lead): one
    rank's by rank, then size (after a play: those of its kind that beat it, then the bombs
    that do); four kings last."""
    one_rank = [
        combo
        for rank in range(RANK_COUNT)
        for combo in COMBO_BY_RANK_SIZE[rank][1 : counts[rank] + 1]
        if combo is not None
    ]
    if last is None:
        plays = one_rank
    else:
        plays = [c for c in one_rank if not c.is_bomb and c.beats(last)]
        plays += [c for c in one_rank if c.is_bomb and c.beats(last)]
    holds_kings = counts[LJ_INDEX] == 3 and counts[BJ_INDEX] >= 1
    if holds_kings and (last is None or FOUR_KINGS.beats(last)):
        plays.append(FOUR_KINGS)
    return plays


def kept(hand: SituanHand, seat: int, last: Combo | None) -> list[Combo]:
    return [COMBO_OF_PLAY[id(play)] for play in hand.holdings[seat].beating(last)]


def assert_kept_as_found(hand: SituanHand, rng: random.Random) -> None:
    for seat in range(4):
        for last in (None, hand.round_combo, rng.choice(EVERY_COMBO)):
            assert kept(hand, seat, last) == found_rank_by_rank(hand.counts[seat], last)


def test_the_plays_kept_are_the_plays_found_rank_by_rank() -> None:
    actions = 0
    for seed in range(40):
        rng = random.Random(seed)
        hand = SituanHand.from_seed(Rules.from_preset(("nanchang", "spade3")[seed % 2]), seed)
        assert_kept_as_found(hand, rng)
        while not hand.over:
            seat = hand.turn
            roll = rng.random()
            if roll < 0.03:
                hand.apply(Timeout(seat))  # the table passes, or leads the lowest single
            elif roll < 0.04:
                hand.apply(Auto(seat, not hand.auto[seat]))
            else:
                moves = [a for a in hand.legal_actions(seat) if type(a) in (Play, Pass)]
                hand.apply(rng.choice(moves))
            assert_kept_as_found(hand, rng)
            actions += 1
    assert actions > 5000


def test_four_kings_go_with_any_of_their_cards() -> None:
    hand = table("LJ LJ LJ BJ 7777777 3", "4", "5", "6 6")
    assert {c.rank_text() for c in kept(hand, 0, None)} >= {"LJLJLJBJ", "7777777", "LJLJLJ"}
    play(hand, 0, "LJ")
    names = {c.rank_text() for c in kept(hand, 0, None)}
    assert {"LJLJLJBJ", "LJLJLJ"}.isdisjoint(names) and {"LJ", "LJLJ", "BJ"} <= names
    assert kept(hand, 0, None) == found_rank_by_rank(hand.counts[0], None)
