"""The ``hard`` 四团 player reads the hidden hands from the plays and passes (issue 14): what a
seat led and what it passed on narrow what it can hold, and the sampled deals agree."""

import random

from engine.ai.situan.normal import SituanAI
from engine.ai.situan.reading import ANY, agree, read_hands
from engine.ai.situan.sampling import sampled_deal
from engine.situan.combos import RANK_COUNT, RANK_INDEX
from tests.ai.helpers import deal
from tests.situan.helpers import script, table

R = RANK_INDEX


def allows(mask: int, count: int) -> bool:
    return bool(mask >> count & 1)


def test_a_pass_on_an_opponents_pair_reads_as_no_pair_above_it_below_the_2s():
    hand = table("77 3 3 3 3 9", "8 J 5 5 5 5 5 6", "4 4 4 4 4 K", "Q 10 10 10 10 10 6")
    script(hand, "0:77; 1:pass")  # no points on the table: the 2s and jokers are not read
    reading = read_hands(hand.view(0))
    for rank in ("8", "9", "10", "J", "Q", "K", "A"):
        assert not allows(reading[1][R[rank]], 2), rank
        assert allows(reading[1][R[rank]], 1) and allows(reading[1][R[rank]], 3)
    assert allows(reading[1][R["2"]], 2)  # kept for rounds that matter
    assert allows(reading[1][R["6"]], 2)  # below the pair: says nothing
    assert reading[3] == [ANY] * RANK_COUNT  # has not acted yet


def test_a_partners_pass_is_not_read_as_having_nothing():
    hand = table("77 3 3 3 3 9", "8 J 5 5 5 5 5 6", "4 4 4 4 4 K", "Q 10 10 10 10 10 6")
    script(hand, "0:77; 1:pass; 2:pass")  # seat 2 leaves its partner's round alone
    assert read_hands(hand.view(1))[2] == [ANY] * RANK_COUNT


def test_an_early_lead_reads_as_the_lowest_group_and_played_whole():
    others = "4 5 7 8 9 10 J Q K A 2222"
    hand = table("3333 666 777 888 999", others, others, others)
    script(hand, "0:666")
    reading = read_hands(hand.view(1))[0]
    for rank in ("3", "4", "5"):
        assert reading[R[rank]] & 0b1110 == 0, rank  # no single, pair or triple below
        assert allows(reading[R[rank]], 0) and allows(reading[R[rank]], 4)  # a bomb may be
    assert reading[R["6"]] == 1  # the whole group was led: none left
    assert reading[R["7"]] == ANY


def test_the_reads_of_normal_players_hold_for_their_true_hands():
    """The reads are the ``normal`` player's habits: on its hands they almost always hold,
    and they say a good deal (a read broken now and then is dropped as the sampler goes)."""
    held = broken = 0
    normal = SituanAI()
    for seed in range(4):
        hand = deal("situan", seed)
        while not hand.over:
            seat = hand.to_act
            view = hand.view(seat)
            for s, masks in read_hands(view).items():
                truth = hand.rank_counts(s)
                for rank, mask in enumerate(masks):
                    if mask != ANY:
                        held += allows(mask, truth[rank])
                        broken += not allows(mask, truth[rank])
            hand.apply(normal.decide(view, hand.legal_actions(seat)))
    assert held > 10_000
    assert broken <= held // 200


def test_swaps_make_a_deal_agree_and_keep_every_holders_count_and_the_floors():
    rng = random.Random(3)
    hands = [[0] * RANK_COUNT for _ in range(4)]
    hands[1][R["9"]], hands[1][R["3"]], hands[2][R["4"]], hands[2][R["9"]] = 3, 1, 2, 2
    bottom = [0] * RANK_COUNT
    bottom[R["K"]] = 2
    only_0_or_4 = ANY & ~0b1110
    reading = {1: [ANY] * RANK_COUNT, 2: [ANY] * RANK_COUNT}
    reading[1][R["9"]] = only_0_or_4  # seat 1 holds no 9s but as a bomb
    floors = {2: [0] * RANK_COUNT}
    floors[2][R["4"]] = 2  # a 墩 kept for seat 2
    before = [sum(hands[1]), sum(hands[2]), sum(bottom)]
    per_rank = [hands[1][r] + hands[2][r] + bottom[r] for r in range(RANK_COUNT)]
    assert agree(hands, bottom, reading, floors, rng) == 0
    assert hands[1][R["9"]] in (0, 4) and hands[2][R["4"]] >= 2
    assert [sum(hands[1]), sum(hands[2]), sum(bottom)] == before
    assert [hands[1][r] + hands[2][r] + bottom[r] for r in range(RANK_COUNT)] == per_rank


def test_a_read_deal_keeps_what_is_public_and_is_nearer_the_truth():
    normal = SituanAI()
    nearer = farther = 0
    for seed in (5, 6):
        hand = deal("situan", seed)
        for step in range(200):
            if hand.over:
                break
            seat = hand.to_act
            view = hand.view(seat)
            if step % 10 == 9:
                reading = read_hands(view)
                distance = [0, 0]
                for i, (hands, bottom) in enumerate(_draws(view, reading)):
                    assert [sum(h) for h in hands] == list(view.held) and len(bottom) == 4
                    assert hands[seat] == list(view.hand_counts)
                    distance[i >= 10] += sum(
                        abs(hands[s][r] - hand.rank_counts(s)[r])
                        for s in reading
                        for r in range(RANK_COUNT)
                    )
                nearer += distance[1] < distance[0]
                farther += distance[1] > distance[0]
            hand.apply(normal.decide(view, hand.legal_actions(seat)))
    assert nearer > 3 * farther


def _draws(view, reading):
    """Ten sampled deals without the reading, then ten with it."""
    rng = random.Random(1)
    draws = []
    for read in [None] * 10 + [reading] * 10:
        drawn = None
        while drawn is None:
            drawn = sampled_deal(view, rng, read)
        draws.append(drawn)
    return draws
