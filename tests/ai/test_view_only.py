"""The AI decides from its view alone: dealing the cards it cannot see differently — in a
way that leaves everything public the same — changes none of its decisions."""

import pytest

from engine.ai import player
from engine.erqiwang import Deal as ErqiwangDeal
from engine.erqiwang import ErqiwangHand
from engine.errors import IllegalAction
from engine.situan import Deal as SituanDeal
from engine.situan import SituanHand
from tests.ai.helpers import deal, fast_hard


def swap_hidden(hands, a, b, same):
    """Exchange the first pair of cards between seats ``a`` and ``b`` that ``same`` says
    are alike in every public respect but are different cards."""
    hands = [list(h) for h in hands]
    for i, x in enumerate(hands[a]):
        for j, y in enumerate(hands[b]):
            if x != y and same(x, y):
                hands[a][i], hands[b][j] = y, x
                return tuple(tuple(h) for h in hands)
    raise AssertionError("no cards to swap")


def compare(world_a, world_b, observer, ai, driver, steps):
    """Play both worlds with the same actions (chosen in world A) and compare the
    observer's decisions at each of its turns, as long as the worlds stay in step."""
    compared = 0
    for _ in range(steps):
        if world_a.over:
            break
        seat = world_a.to_act
        if seat == observer:
            legal_a = world_a.legal_actions(seat)
            legal_b = world_b.legal_actions(seat)
            mine_a = ai.decide(world_a.view(seat), legal_a)
            mine_b = ai.decide(world_b.view(seat), legal_b)
            assert mine_a == mine_b
            compared += 1
            action = mine_a
        else:
            action = driver.decide(world_a.view(seat), world_a.legal_actions(seat))
        world_a.apply(action)
        try:
            world_b.apply(action)
        except IllegalAction:
            break  # the hidden cards made a difference to someone else's play: stop here
    return compared


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_situan_decisions_do_not_depend_on_the_cards_of_others(level):
    a = deal("situan", 11)
    # suits never matter: swap two different ranks between the opponents, outside any 墩
    hands = swap_hidden(
        a.deal.hands,
        1,
        3,
        lambda x, y: x.rank != y.rank and x.rank not in ("LJ", "BJ") and y.rank not in ("LJ", "BJ"),
    )
    b = SituanHand(a.rules, SituanDeal(hands, a.deal.bottom, a.deal.flipped_position))
    ai = fast_hard("situan", 3) if level == "hard" else player("situan", level)
    assert compare(a, b, 0, ai, player("situan", "normal"), 40) >= 2


def same_side_card(x, y):
    """Two cards of one suit that are side cards under every trump choice but that suit."""
    return x.suit == y.suit and x.rank not in PERMANENT and y.rank not in PERMANENT


PERMANENT = ("7", "2", "LJ", "BJ")


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_erqiwang_decisions_do_not_depend_on_the_cards_of_others(level):
    ai = fast_hard("erqiwang", 3) if level == "hard" else player("erqiwang", level)
    compared = 0
    seeds = range(12, 15) if level == "hard" else range(12, 22)
    for seed in seeds:
        a = deal("erqiwang", seed)
        hands = swap_hidden(a.deal.hands, 1, 2, same_side_card)
        b = ErqiwangHand(a.rules, ErqiwangDeal(hands, a.deal.bottom), a.first)
        compared += compare(a, b, 0, ai, player("erqiwang", "normal"), 60)
    assert compared >= len(seeds) // 2
