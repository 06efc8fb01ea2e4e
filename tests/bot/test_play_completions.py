"""What `/play` offers to complete with (Discord shows the first 25): a 四团 leader sees the
lowest play of every size first, so singles, pairs, triples and bombs all show, not only the
groups of the lowest ranks."""

from bot.games import front_of
from engine import game_of
from engine.actions import Play


def test_a_situan_leader_is_offered_the_lowest_of_each_size_first():
    situan = game_of("situan")
    hand = situan.deal(situan.rules(), seed=3)
    leader = hand.to_act
    listed = [a.ranks for a in hand.legal_actions(leader) if isinstance(a, Play)]
    plays = ["".join(ranks) for ranks in listed]
    offered = front_of("situan").suggestions(hand, leader)
    assert sorted(offered) == sorted(plays)  # every play, each once
    sizes = sorted({len(ranks) for ranks in listed})
    lowest = ["".join(next(r for r in listed if len(r) == n)) for n in sizes]
    assert len(sizes) >= 4 and offered[: len(sizes)] == lowest
    # The K bomb is past the 25th play when listed rank by rank; taken a size at a time in
    # turn, it is among the first 25.
    assert plays.index("KKKK") >= 25 and "KKKK" in offered[:25]


def test_a_seat_not_on_turn_is_offered_its_own_cards():
    situan = game_of("situan")
    hand = situan.deal(situan.rules(), seed=3)
    waiting = (hand.to_act + 1) % 4
    offered = front_of("situan").suggestions(hand, waiting)
    assert offered == [str(c) for c in dict.fromkeys(hand.cards_of(waiting))]
