"""rules-situan.md: Round (轮) and lead; Who leads a hand."""

from engine.situan import Deal, Rules, SituanHand, deal_from_seed
from engine.situan.events import RoundWon
from tests.record_actions import Action, outcome
from tests.situan.helpers import pass_, play, ranks, refused, refused_play, script, table


def test_the_leader_plays_any_combination():
    hand = table("9 88 777 6666", "3", "4", "5")
    assert {c.rank_text() for c in hand.legal_plays()} >= {"9", "88", "777", "6666"}
    play(hand, 0, "6666")


def test_each_follower_plays_a_beating_combination_or_passes():
    hand = table("9 3", "A 4", "5 6", "8 7")
    play(hand, 0, "9")
    assert refused_play(hand, 1, "4") == "cannot_beat"
    play(hand, 1, "A")
    pass_(hand, 2)


def test_a_pass_is_for_that_turn_only_a_player_who_passed_may_play_again():
    hand = table("3 3", "4 Q", "5 5", "6 6")
    script(hand, "0:3; 1:pass; 2:5; 3:6; 0:pass")
    play(hand, 1, "Q")  # seat 1 passed on the 3 but may beat the 6
    assert hand.round_seat == 1


def test_the_round_ends_after_three_consecutive_passes_with_four_players_holding_cards():
    hand = table("K 3", "4 4", "5 5", "6 6")
    script(hand, "0:K; 1:pass; 2:pass")
    assert hand.round_combo is not None
    events = pass_(hand, 3)
    assert RoundWon(0, 10, 0) in events
    assert hand.round_combo is None and hand.turn == 0


def test_the_round_ends_when_every_other_player_still_holding_cards_has_passed():
    hand = table("3", "4 9", "5 8", "6 7")
    script(hand, "0:3")  # seat 0 is out; three players hold cards
    script(hand, "1:4; 2:pass")
    assert hand.round_combo is not None  # seat 3 has not passed yet
    events = pass_(hand, 3)
    assert any(isinstance(e, RoundWon) and e.seat == 1 for e in events)


def test_the_round_winner_takes_every_point_card_played_5_10_and_k():
    hand = table("5 3", "10 4", "K 6", "8 7")
    script(hand, "0:5; 1:10; 2:K; 3:pass; 0:pass; 1:pass")
    assert hand.captured == [0, 0, 25, 0]


def test_the_round_winner_leads_the_next_round():
    hand = table("3 4", "9 5", "6 7", "8 2")
    script(hand, "0:3; 1:9; 2:pass; 3:pass; 0:pass")
    assert hand.turn == 1 and hand.leading


def test_the_leader_may_not_pass():
    hand = table("3 4", "5", "6", "7")
    assert refused(hand, Action(0, "pass")) == "must_lead"


def test_players_who_are_out_are_skipped_in_turn_order():
    hand = table("3 9", "4", "5 5", "6 6")
    script(hand, "0:3; 1:4")  # seat 1 is out
    script(hand, "2:pass; 3:pass")
    assert hand.turn == 0


def test_lead_after_out_next_the_next_player_holding_cards_leads_when_the_winner_is_out():
    hand = table("3 3", "A", "5 5", "6 6", lead_after_out="next")
    script(hand, "0:3; 1:A; 2:pass; 3:pass; 0:pass")
    assert hand.round_combo is None
    assert hand.turn == 2  # seat 1 won the round while going out; the next holder leads


def test_lead_after_out_partner_the_winners_partner_leads_if_still_holding_cards():
    hand = table("3 3", "A", "5 5", "6 6", lead_after_out="partner")
    script(hand, "0:3; 1:A; 2:pass; 3:pass; 0:pass")
    assert hand.turn == 3  # 接风: seat 1's partner


def test_lead_after_out_partner_a_winner_out_with_the_partner_out_ends_the_hand_first():
    # The fallback to the next player can never be reached: a winner out beside an out
    # partner is a team out, which is 双关 or the third player out.
    hand = table("3 3 3", "A 4", "5 5 5", "6", lead_after_out="partner")
    script(hand, "0:3; 1:4; 2:5; 3:6")  # seat 3 is out
    script(hand, "0:pass; 1:A")  # seat 1, its partner, goes out too
    assert hand.over and outcome(hand) is not None and outcome(hand)["ended_by"] == "double"


def test_first_leader_flip_the_player_dealt_the_flipped_card_leads():
    deal = deal_from_seed(11)
    assert deal.flipped_position is not None
    hand = SituanHand(Rules.from_preset("nanchang"), deal)
    assert hand.turn == deal.flipped_position % 4
    assert deal.flipped_card in deal.hands[hand.turn]
    assert hand.view(None).flipped == deal.flipped_card  # shown with the deal


def test_a_later_hand_is_led_by_the_carried_leader_and_shows_no_flipped_card():
    deal = deal_from_seed(11)
    leader = (deal.flipped_position + 1) % 4  # the previous hand's 上游, not the flip's seat
    hand = SituanHand(Rules.from_preset("nanchang"), deal, first=leader)
    assert hand.turn == leader
    assert hand.view(None).flipped is None  # nothing was turned for this hand


def test_first_leader_spade3_the_first_player_dealt_a_spade_3_leads():
    hands = [ranks("4 4"), ranks("5 5"), ranks("6 6"), ranks("7 7")]
    hands[2] = (hands[2][0], *ranks("3"))  # seat 2, 2nd card: position 6
    hands[1] = (*ranks("3"), hands[1][1])  # seat 1, 1st card: position 1 → first
    deal = Deal(tuple(hands), ())
    hand = SituanHand(Rules.from_preset("spade3"), deal)
    assert hand.turn == 1


def test_first_leader_spade3_ignores_threes_of_other_suits():
    from engine.cards import card

    deal = Deal(((card("H3"), card("S4")), (card("S5"), card("S3")), ranks("6"), ranks("7")), ())
    hand = SituanHand(Rules.from_preset("spade3"), deal)
    assert hand.turn == 1


def test_every_later_hand_is_led_by_the_previous_hands_first_out():
    deal = deal_from_seed(5)
    hand = SituanHand(Rules.from_preset("nanchang"), deal, first=3)
    assert hand.turn == 3
