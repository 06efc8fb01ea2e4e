"""bench/hint_check.py (``ai_strength.py --hint-check``): the hints asked as the bot asks
them are the ``hard`` seats' decisions, legal, and timed; the hint follower plays them."""

import asyncio

import pytest

from bench.hint_check import HintFollower, check, decision_points, is_legal
from bot.table import ai_turns
from engine.actions import Pass


@pytest.mark.parametrize("game", ["situan", "erqiwang"])
def test_the_hints_equal_the_hard_seats_decisions_and_are_legal(game):
    found = asyncio.run(check(game, range(2), 3, workers=0))
    assert found["asked"] == 6
    assert found["equal"] == found["legal"] == 6
    assert len(found["times"]) == len(found["cpu"]) == 6


def test_a_refused_move_is_not_counted_legal():
    then, view, _ = decision_points("situan", 1, 1)[0]
    assert not is_legal(then, Pass((view.seat + 1) % 4))  # not that seat's turn


def test_the_hint_follower_plays_what_the_hard_player_decides():
    _, view, legal = decision_points("erqiwang", 4, 1)[0]
    hard = ai_turns.ai_player("erqiwang", "hard").decide(view, legal)
    assert HintFollower("erqiwang").decide(view, legal) == hard
