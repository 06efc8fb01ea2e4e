"""rules-situan.md: Table and cards; Rank order."""

from collections import Counter

from engine.situan import RANKS, deal_from_seed, situan_deck
from engine.situan.outcome import team_of
from tests.situan.helpers import play, script, table


def test_partners_sit_opposite_team_a_is_seats_0_2_team_b_is_seats_1_3():
    assert [team_of(s) for s in range(4)] == [0, 1, 0, 1]


def test_turn_order_is_seat_plus_one_mod_4():
    hand = table("3 3", "4 4", "5 5", "6 6", first=3)
    script(hand, "3:6")
    assert hand.turn == 0
    script(hand, "0:pass")
    assert hand.turn == 1
    script(hand, "1:pass")
    assert hand.turn == 2


def test_the_deck_is_three_packs_minus_the_big_jokers_160_cards():
    deck = situan_deck()
    assert len(deck) == 160
    by_rank = Counter(c.rank for c in deck)
    assert all(by_rank[r] == 12 for r in RANKS[:13])
    assert by_rank["LJ"] == 3 and by_rank["BJ"] == 1
    assert all(n == 3 for c, n in Counter(deck).items() if not c.is_joker)


def test_the_deal_gives_39_cards_each_and_4_to_the_bottom():
    deal = deal_from_seed(42)
    assert [len(h) for h in deal.hands] == [39, 39, 39, 39]
    assert len(deal.bottom) == 4
    assert Counter(c for h in deal.hands for c in h) + Counter(deal.bottom) == Counter(
        situan_deck()
    )


def test_the_same_seed_deals_the_same_cards():
    assert deal_from_seed("match-1") == deal_from_seed("match-1")
    assert deal_from_seed(1) != deal_from_seed(2)


def test_suits_never_matter_copies_of_a_rank_are_interchangeable():
    hand = table("7777 3", "4", "5", "6")  # the 7s are dealt as S7 H7 C7 D7
    play(hand, 0, "S7 H7 C7 D7")
    assert hand.round_combo is not None and hand.round_combo.kind == "bomb"
    other = table("7777 3", "4", "5", "6")
    play(other, 0, "7777")
    assert other.round_combo is hand.round_combo


def test_rank_order_3_to_a_then_2_small_joker_big_joker():
    assert RANKS == ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "LJ", "BJ")
