"""The AI levels: what `engine.ai.player` hands out, and every decision of every level legal
across rule options."""

import pytest

from engine.actions import StartShow
from engine.ai import LEVELS, player
from tests.ai.helpers import deal, drive, fast_hard

SITUAN_OPTIONS = [
    {},
    {"lead_after_out": "partner", "announce_at": 5},
    {"preset": "baomahui", "early_end": False},
    {"preset": "spade3", "dun_counted": "played", "announce_at": 0},
]
ERQIWANG_OPTIONS = [
    {},
    {"bid_step": 10, "bid_max": 115},
    {"bid_min": 60, "first_must_bid": True, "allow_no_trump": False},
    {"preset": "online"},
    {"throw": "none", "scoring": "proportional", "bottom_multiplier": "doubling"},
    {"bid_step": 20, "bid_max": 100, "surrender_above": 40},
]


def test_the_levels_are_easy_normal_and_hard():
    assert LEVELS == ("easy", "normal", "hard")
    for game in ("situan", "erqiwang"):
        for level in LEVELS:
            assert hasattr(player(game, level, seed=1), "decide")


def test_an_unknown_level_or_game_is_refused():
    with pytest.raises(ValueError):
        player("situan", "expert")
    with pytest.raises(KeyError):
        player("chess", "easy")


@pytest.mark.parametrize("options", SITUAN_OPTIONS)
@pytest.mark.parametrize("level", ["easy", "normal"])
def test_every_situan_decision_is_legal(options, level):
    for seed in range(2):
        hand = deal("situan", seed, **options)
        driver = player("situan", level)
        list(drive(hand, driver, {}))
        assert hand.over


@pytest.mark.parametrize("options", ERQIWANG_OPTIONS)
@pytest.mark.parametrize("level", ["easy", "normal"])
def test_every_erqiwang_decision_is_legal(options, level):
    for seed in range(3):
        hand = deal("erqiwang", seed, **options)
        list(drive(hand, player("erqiwang", level), {}))
        assert hand.over


@pytest.mark.parametrize("options", SITUAN_OPTIONS)
def test_hard_situan_decisions_are_legal(options):
    hand = deal("situan", 5, **options)
    probes = {"hard": fast_hard("situan"), "easy": player("situan", "easy")}
    list(drive(hand, player("situan", "normal"), probes, every=9))
    assert hand.over


@pytest.mark.parametrize("options", ERQIWANG_OPTIONS)
def test_hard_erqiwang_decisions_are_legal(options):
    hand = deal("erqiwang", 7, **options)
    probes = {"hard": fast_hard("erqiwang"), "easy": player("erqiwang", "easy")}
    list(drive(hand, player("erqiwang", "normal"), probes, every=12))
    assert hand.over


def test_a_situan_show_the_normal_player_starts_is_started_by_hard_too():
    """A 亮牌 is not weighed by playouts (they count no stakes): ``hard`` starts it when
    ``normal`` would, and never plays it out as a pass."""
    normal = player("situan", "normal")
    shows = 0
    for seed in range(3):
        hand = deal("situan", seed, preset="baomahui")
        while not hand.over:
            seat = hand.to_act
            view, legal = hand.view(seat), hand.legal_actions(seat)
            chosen = normal.decide(view, legal)
            if isinstance(chosen, StartShow):
                hard = fast_hard("situan", playouts=24)
                assert hard.decide(view, legal) == chosen
                assert hard.iterations == 0  # no playout weighed it against a play
                shows += 1
            hand.apply(chosen)
    assert shows >= 3
