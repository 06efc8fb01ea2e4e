"""rules-erqiwang.md: Table and cards; Trumps (主牌)."""

from collections import Counter

from engine.cards import parse_card
from engine.erqiwang import deal_from_seed, erqiwang_deck
from engine.erqiwang.order import ORDERS, TRUMP
from tests.erqiwang.helpers import playing, trick


def pos(text: str, trump: str | None = "H") -> int:
    return ORDERS[trump].position[parse_card(text)]


def test_two_packs_with_jokers_108_cards_25_each_8_to_the_bottom():
    deck = erqiwang_deck()
    assert len(deck) == 108 and all(n == 2 for n in Counter(deck).values())
    deal = deal_from_seed(1)
    assert [len(h) for h in deal.hands] == [25] * 4 and len(deal.bottom) == 8


def test_point_cards_5_10_and_k_make_200():
    assert sum(c.points for c in erqiwang_deck()) == 200


def test_jokers_every_7_and_every_2_are_always_trump():
    for trump in ("S", "H", "C", "D", None):
        order = ORDERS[trump]
        for text in ("BJ", "LJ", "S7", "D7", "C2", "H2"):
            assert order.suit[parse_card(text)] == TRUMP


def test_the_trump_suit_is_trump_and_other_suits_are_side_suits():
    order = ORDERS["H"]
    assert order.suit[parse_card("HA")] == TRUMP and order.suit[parse_card("H3")] == TRUMP
    assert order.suit[parse_card("SA")] == "S"


def test_trump_order_bj_lj_main7_side7_main2_side2_then_a_to_3_of_the_trump_suit():
    ladder = ["BJ", "LJ", "H7", "S7", "H2", "S2", "HA", "HK", "HQ", "HJ", "H10", "H9", "H8",
              "H6", "H5", "H4", "H3"]  # fmt: skip
    positions = [pos(t) for t in ladder]
    assert positions == sorted(positions, reverse=True) and len(set(positions)) == len(ladder)


def test_all_side_7s_are_one_level_and_all_side_2s_are_one_level():
    assert pos("S7") == pos("C7") == pos("D7")
    assert pos("S2") == pos("C2") == pos("D2")


def test_ten_is_a_normal_rank_between_j_and_9():
    assert pos("HJ") > pos("H10") > pos("H9")


def test_with_no_trump_suit_bj_lj_then_all_7s_then_all_2s():
    assert pos("BJ", None) > pos("LJ", None) > pos("H7", None) == pos("S7", None)
    assert pos("S7", None) > pos("D2", None) == pos("H2", None)
    assert ORDERS[None].suit[parse_card("HA")] == "H"


def test_a_side_suits_order_skips_7_and_2_so_8_and_6_are_adjacent():
    assert pos("SA") > pos("SK") > pos("S8") and pos("S8") == pos("S6") + 1


def test_for_following_all_trumps_form_one_suit():
    hand = playing("BJ S3 S4", "D2 S5 S6", "H9 S8 S9", "LJ SQ SK", trump="H")
    trick(hand, "BJ", "D2", "H9", "LJ")  # a 副2, a trump 9 and a joker all follow the joker
    assert hand.tricks_done == 1
