"""The ``hard`` players: bounded by their budget, deterministic for a seed."""

from engine.ai import player
from engine.ai.search import SituanSearchAI
from tests.ai.helpers import FakeClock, deal


def first_contested_decision(game, seed):
    """A hand at a decision where the search has several candidates to weigh."""
    hand = deal(game, seed)
    normal = player(game, "normal")
    for _ in range(200):
        seat = hand.to_act
        if hand.view(seat).phase == "play" and len(hand.legal_actions(seat)) > 4:
            return hand, seat
        hand.apply(normal.decide(hand.view(seat), hand.legal_actions(seat)))
    raise AssertionError("no contested decision")


def test_a_search_stops_when_its_time_budget_is_spent():
    for game in ("situan", "erqiwang"):
        hand, seat = first_contested_decision(game, 2)
        clock = FakeClock(step=0.05)  # every reading of the clock: 50 ms later
        hard = player(game, "hard", 1, budget=0.2, playouts=1000, clock=clock)
        action = hard.decide(hand.view(seat), hand.legal_actions(seat))
        assert action in hand.legal_actions(seat)
        assert 1 <= hard.iterations <= 4  # 0.2 s of 0.05 s steps, read once per iteration


def test_a_search_stops_at_its_playout_limit():
    hand, seat = first_contested_decision("situan", 3)
    hard = SituanSearchAI(4, budget=1e9, playouts=3)
    hard.decide(hand.view(seat), hand.legal_actions(seat))
    assert hard.iterations == 3


def test_a_search_is_deterministic_for_a_seed():
    for game in ("situan", "erqiwang"):
        hand, seat = first_contested_decision(game, 5)
        view, legal = hand.view(seat), hand.legal_actions(seat)
        one = player(game, "hard", 9, budget=1e9, playouts=4).decide(view, legal)
        two = player(game, "hard", 9, budget=1e9, playouts=4).decide(view, legal)
        assert one == two
