"""The ``hard`` players: bounded by their budget, deterministic for a seed."""

import random
from types import SimpleNamespace

from engine.ai import player
from engine.ai.erqiwang.declaring import (
    DECLARING_BUDGETS,
    bury_candidates,
    sampled_start,
    trump_candidates,
)
from engine.ai.erqiwang.sampling import _split_bury
from engine.ai.erqiwang.search import _erqiwang_value
from engine.ai.situan.search import SituanSearchAI
from engine.cards import parse_card
from tests.ai.helpers import FakeClock, assert_legal, deal


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
        # 0.2 s of 0.05 s steps, read once per iteration; a contested 二七王 play runs for
        # its further budgets
        assert 1 <= hard.iterations <= 4 * (1 + hard.extension)


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


def declaring_decision(seed):
    """A 二七王 hand at the declarer's trump decision, after a ``normal`` auction."""
    hand = deal("erqiwang", seed, first_must_bid=True)
    normal = player("erqiwang", "normal")
    while hand.phase == "bidding":
        seat = hand.to_act
        hand.apply(normal.decide(hand.view(seat), hand.legal_actions(seat)))
    assert hand.phase == "trump"
    return hand


def test_the_declarer_weighs_trump_and_bury_for_several_budgets():
    hand = declaring_decision(4)
    for phase in ("trump", "bury"):
        seat = hand.to_act
        clock = FakeClock(step=0.05)
        hard = player("erqiwang", "hard", 1, budget=0.2, playouts=1000, clock=clock)
        action = hard.decide(hand.view(seat), hand.legal_actions(seat))
        assert_legal(hand, seat, action)
        # one budget is 0.2 s; the search stops at the first look past DECLARING_BUDGETS
        # of them and never runs past twice that (OVERRUN)
        assert DECLARING_BUDGETS * 0.2 <= clock.now <= 2 * DECLARING_BUDGETS * 0.2 + 0.05
        assert hard.samples >= 2
        assert hand.phase == phase
        hand.apply(action)


def test_the_declarers_candidates_are_distinct_and_start_with_the_normal_choice():
    hand = declaring_decision(6)
    normal = player("erqiwang", "normal")
    seat = hand.to_act
    view = hand.view(seat)
    chosen = normal.decide(view, hand.legal_actions(seat))
    trumps = trump_candidates(view, chosen)
    assert trumps[0] == chosen and len(set(trumps)) == len(trumps) >= 2
    hand.apply(chosen)
    view = hand.view(seat)
    chosen = normal.decide(view, hand.legal_actions(seat))
    buries = bury_candidates(view, chosen, 5)
    assert buries[0] == chosen
    assert len({tuple(sorted(c.text for c in b.cards)) for b in buries}) == len(buries) >= 2
    for bury in buries:
        assert_legal(hand, seat, bury)


def test_a_declaring_search_is_deterministic_for_a_seed():
    hand = declaring_decision(8)
    for _ in ("trump", "bury"):
        seat = hand.to_act
        view, legal = hand.view(seat), hand.legal_actions(seat)
        one = player("erqiwang", "hard", 9, budget=1e9, playouts=6).decide(view, legal)
        two = player("erqiwang", "hard", 9, budget=1e9, playouts=6).decide(view, legal)
        assert one == two
        hand.apply(one)


def test_a_sampled_start_keeps_what_the_declarer_knows():
    hand = declaring_decision(10)
    seat = hand.to_act
    hand.apply(player("erqiwang", "normal").decide(hand.view(seat), hand.legal_actions(seat)))
    view = hand.view(seat)
    sampled = sampled_start(view, random.Random(3))
    mine = sampled.view(seat)
    assert mine.phase == "bury" and mine.trump == view.trump
    assert sorted(mine.hand, key=str) == sorted(view.hand, key=str)
    assert mine.bottom_shown == view.bottom_shown and mine.counts == view.counts
    assert mine.bids == view.bids
    others = [c for s in range(4) if s != seat for c in sampled.hands[s]]
    real = [c for s in range(4) if s != seat for c in hand.hands[s]]
    assert sorted(others, key=str) == sorted(real, key=str)


def test_a_defender_reads_the_declarers_bury_as_the_lowest_side_cards_it_could_be():
    group = [parse_card(t) for t in ("SA", "S3", "H4", "HK", "C5", "C6", "DJ", "D2")]
    suit = {c: c.suit for c in group}
    ranking = [parse_card(t) for t in ("C5", "S3", "H4", "C6", "DJ", "HK", "SA", "D2")]
    rng = random.Random(0)
    buried, kept = _split_bury(group, 3, {"H"}, suit, rng, ranking)
    # every heart must be buried (the declarer showed it has none); then the ranking's first
    assert sorted(map(str, buried)) == sorted(["H4", "HK", "C5"])
    assert sorted(map(str, kept)) == sorted(["SA", "S3", "C6", "DJ", "D2"])
    assert _split_bury(group, 1, {"H"}, suit, rng, ranking) is None  # two hearts, one slot
    shuffled, _ = _split_bury(group, 3, set(), suit, random.Random(1), None)
    assert len(shuffled) == 3 and set(shuffled) <= set(group)


def playout_end(bid, defender_points, decks=2):
    """A finished 二七王 playout as `_erqiwang_value` reads it (declarer: seat 0)."""
    won = defender_points < bid if bid else defender_points == 0
    result = SimpleNamespace(declarer=0, bid=bid, defender_points=defender_points, declarer_won=won)
    return SimpleNamespace(result=result, rules=SimpleNamespace(decks=decks))


def test_a_playout_counts_a_close_result_in_part():
    value = _erqiwang_value
    assert value(playout_end(100, 40), 0) == 1.0  # won by 60: a whole win
    assert value(playout_end(100, 40), 1) == -1.0  # for a defender, a whole loss
    assert 0 < value(playout_end(100, 90), 0) < value(playout_end(100, 80), 0) < 1.0
    assert -1.0 < value(playout_end(100, 100), 0) < 0 < value(playout_end(100, 95), 0)
    assert value(playout_end(100, 150), 0) == -1.0
    assert value(playout_end(0, 0), 0) > 0 > value(playout_end(0, 5), 0)  # a bid of 0
    # one deck: half the points make the same part
    assert value(playout_end(50, 45, decks=1), 0) == value(playout_end(100, 90), 0)


def test_each_game_has_its_own_default_budget_and_a_given_one_wins():
    """四团 culls, so it can afford twice the time on the decisions that stay contested."""
    assert player("situan", "hard").budget == 0.3  # type: ignore[attr-defined]
    assert player("erqiwang", "hard").budget == 0.15  # type: ignore[attr-defined]
    assert player("situan", "hard", budget=0.05).budget == 0.05  # type: ignore[attr-defined]
