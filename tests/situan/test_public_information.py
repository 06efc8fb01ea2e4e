"""rules-situan.md: Public information (报牌)."""

from engine.situan.events import CountAnnounced
from tests.situan.helpers import play, table


def test_a_card_count_is_public_once_it_is_at_most_11():
    hand = table("3 " * 12 + "4", "5", "6", "7")
    assert hand.view(1).counts[0] is None  # 13 cards: only "more than 11"
    play(hand, 0, "33")
    assert hand.view(1).counts[0] == 11


def test_reaching_the_limit_is_announced():
    hand = table("3 " * 12 + "4", "5", "6", "7")
    events = play(hand, 0, "33")
    assert CountAnnounced(0, 11) in events


def test_announce_at_option_moves_the_limit():
    hand = table("3 3 3 3 3 3", "5", "6", "7", announce_at=5)
    assert hand.view(1).counts[0] is None
    play(hand, 0, "3")
    assert hand.view(1).counts[0] == 5


def test_every_play_and_everyones_captured_points_are_public():
    hand = table("K 3", "4 4", "5 5", "6 6")
    play(hand, 0, "K")
    view = hand.view(2)
    assert [(s, c.rank_text()) for s, c in view.round_plays] == [(0, "K")]
    assert view.table_points == 10
    assert view.played_counts[11 - 1] == 1  # one K played
