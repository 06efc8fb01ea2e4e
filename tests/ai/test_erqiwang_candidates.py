"""What the ``hard`` 二七王 player weighs: the ``normal`` play first, then the plays a player
would think of — other suits and strengths when leading; winning, shedding, feeding and the
highest when following — all legal and distinct."""

from engine.actions import Play
from engine.ai.erqiwang.candidates import erqiwang_candidates
from engine.ai.erqiwang.normal import ErqiwangAI
from engine.ai.erqiwang.trick import best_so_far, would_win
from engine.erqiwang.shapes import shape_of
from tests.ai.helpers import deal


def play_decisions(seed):
    """(view, legal, normal choice) at each decision of play of a hand played by ``normal``."""
    hand = deal("erqiwang", seed, first_must_bid=True)
    normal = ErqiwangAI()
    while not hand.over:
        seat = hand.to_act
        view, legal = hand.view(seat), hand.legal_actions(seat)
        choice = normal.decide(view, legal)
        if view.phase == "play" and isinstance(choice, Play):
            yield view, legal, choice
        hand.apply(choice)


def key(play):
    return tuple(sorted(c.text for c in play.cards))


def test_candidates_are_legal_distinct_and_start_with_the_normal_play():
    weighed = 0
    for seed in range(4):
        for view, legal, choice in play_decisions(seed):
            candidates = erqiwang_candidates(view, legal, choice, 5)
            assert candidates[0] == choice
            assert len({key(c) for c in candidates}) == len(candidates) <= 5
            assert all(c in legal for c in candidates)
            weighed += len(candidates) > 1
    assert weighed > 60


def test_a_lead_weighs_other_suits():
    leads = 0
    for seed in range(4):
        for view, legal, choice in play_decisions(seed):
            if view.trick:
                continue
            order = view.order
            suits_held = {order.suit[c] for c in view.hand}
            suits = {order.suit[c.cards[0]] for c in erqiwang_candidates(view, legal, choice, 5)}
            assert len(suits) >= min(len(suits_held), 3) or len(view.hand) <= 2
            leads += 1
    assert leads > 20


def test_a_follow_weighs_the_cheapest_win_and_the_fewest_points():
    follows = 0
    for seed in range(4):
        for view, legal, choice in play_decisions(seed):
            if not view.trick:
                continue
            order = view.order
            lead_cards = view.trick[0][1]
            lead, lead_suit = shape_of(lead_cards, order), order.suit[lead_cards[0]]
            best = best_so_far(view, lead_suit)
            plays = [a for a in legal if isinstance(a, Play)]
            candidates = erqiwang_candidates(view, legal, choice, 5)
            if any(would_win(order, p.cards, lead, lead_suit, best) for p in plays):
                assert any(would_win(order, c.cards, lead, lead_suit, best) for c in candidates)
            fewest = min(sum(c.points for c in p.cards) for p in plays)
            assert min(sum(c.points for c in p.cards) for p in candidates) == fewest
            follows += 1
    assert follows > 60
