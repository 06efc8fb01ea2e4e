"""rules-erqiwang.md: one deck (``decks: 1``, preset ``one_deck``) — 54 cards, 12 each, a
bottom of 6, 100 points, no pairs, no 冲关, and every figure of bidding and settlement halved."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.cards import ALL_CARDS
from engine.erqiwang import ERQIWANG, ErqiwangHand, Rules, deal_from_seed, erqiwang_deck
from engine.erqiwang.bonus import bonus_of
from engine.erqiwang.events import Buried
from engine.erqiwang.record import read_deal
from engine.erqiwang.rules import deck_defaults
from engine.erqiwang.settlement import online, proportional, small_sweep_limit, tiered
from engine.erqiwang.shapes import shape_of
from engine.errors import IllegalAction, RecordError
from engine.replay import replay_record
from tests.erqiwang.helpers import cards, dealt, playing, refused, trick
from tests.record_actions import Action, outcome

SIX = "D3 D4 D6 D8 D9 C3"
"""Six pointless side cards: a one-deck bottom, buried straight back."""


def one_deck(*hands: str, bid: int = 40, **options: object) -> ErqiwangHand:
    return playing(*hands, bid=bid, bottom=SIX, preset="one_deck", **options)


# ------------------------------------------------------------------ table and cards


def test_one_deck_is_54_cards_12_each_and_a_bottom_of_6():
    deal = deal_from_seed(11, decks=1)
    assert [len(h) for h in deal.hands] == [12, 12, 12, 12]
    assert len(deal.bottom) == 6
    assert Counter(c for h in deal.hands for c in h) + Counter(deal.bottom) == Counter(ALL_CARDS)


def test_one_deck_holds_100_points_and_two_decks_200():
    assert sum(c.points for c in erqiwang_deck(1)) == 100
    assert sum(c.points for c in erqiwang_deck(2)) == 200


def test_the_one_deck_preset_deals_one_deck():
    hand = ERQIWANG.deal(ERQIWANG.rules("one_deck"), seed=5)
    assert [len(hand.hands[s]) for s in range(4)] == [12] * 4
    assert hand.bottom_size == 6
    assert len(set(hand.deal.bottom) | {c for h in hand.hands for c in h}) == 54


def test_two_decks_still_deal_as_before():
    deal = deal_from_seed(11)
    assert [len(h) for h in deal.hands] == [25] * 4 and len(deal.bottom) == 8
    assert deal == deal_from_seed(11, decks=2)


def test_with_one_deck_every_card_is_unique_so_no_two_cards_are_a_pair():
    hand = ERQIWANG.deal(ERQIWANG.rules("one_deck"), seed=3)
    hand.apply(Action(0, "bid", points=60))
    for seat in (1, 2, 3):
        hand.apply(Action(seat, "pass"))
    hand.apply(Action(0, "trump", suit="S"))
    hand.apply(Action(0, "timeout"))  # the auto-bury
    for play in hand.legal_plays():
        shape = shape_of(play, hand.order)
        assert shape.pair_total == 0
        assert shape.components == len(play)  # singles, or a throw of singles


def test_two_trump_7s_of_one_deck_are_not_a_pair_but_a_throw_of_singles():
    hand = one_deck("H7 S7 S3", "D5 S4 S5", "C5 S6 S8", "DK S9 SJ")
    shape = shape_of(cards("H7 S7"), hand.order)
    assert shape.pair_total == 0 and shape.signature == ((), 0, 2)


def test_only_two_jokers_exist_so_there_is_no_bonus():
    assert bonus_of(erqiwang_deck(1), "H") is None
    hand = ERQIWANG.deal(ERQIWANG.rules("one_deck"), seed=9)
    assert all(bonus_of(hand.hands[s], None) is None for s in range(4))


# ------------------------------------------------------------------ bidding


def test_the_one_deck_preset_bids_at_most_60_and_surrenders_above_40():
    rules = Rules.from_preset("one_deck")
    assert (rules.decks, rules.bid_max, rules.surrender_above) == (1, 60, 40)
    assert (rules.scoring, rules.bonus_scoring, rules.first_bidder) == ("tiered", "units", "seat0")
    hand = dealt("S3", "S4", "S5", "S6", bottom=SIX, preset="one_deck")
    assert hand.allowed_bids()[0] == 60
    assert refused(hand, Action(0, "bid", points=65)) == "bid_not_allowed"


def test_bid_max_above_the_decks_points_is_bad_rules():
    with pytest.raises(RecordError) as error:
        Rules.from_preset("one_deck", bid_max=105)
    assert error.value.code == "bad_rules"
    with pytest.raises(RecordError) as error:
        Rules.from_preset("classic", decks=1)  # classic's bid_max 120 > 100
    assert error.value.code == "bad_rules" and "100" in error.value.message
    assert error.value.facts["option"] == "bid_max"
    assert Rules.from_preset("one_deck", bid_max=100).bid_max == 100
    assert Rules.from_preset("classic", bid_max=200).bid_max == 200


def test_decks_is_1_or_2():
    for bad in (0, 3, "many"):
        with pytest.raises(RecordError) as error:
            Rules.from_preset("classic", decks=bad)
        assert error.value.code == "bad_rules"


def test_the_defaults_of_a_deck_for_settings():
    assert deck_defaults(1) == {"bid_max": 60, "surrender_above": 40}
    assert deck_defaults(2) == {"bid_max": 120, "surrender_above": 80}
    rules = Rules.for_decks(1, "online")
    assert (rules.decks, rules.bid_max, rules.surrender_above) == (1, 60, 40)
    assert rules.scoring == "online"
    assert Rules.for_decks(2, "one_deck").bid_max == 120
    with pytest.raises(RecordError):
        deck_defaults(3)


def test_surrender_with_one_deck_needs_a_bid_above_40():
    low = one_deck("S3 S4", "S5 S6", "S8 S9", "SJ SQ", bid=40)
    assert refused(low, Action(0, "surrender")) == "surrender_not_allowed"
    high = one_deck("S3 S4", "S5 S6", "S8 S9", "SJ SQ", bid=45)
    high.apply(Action(0, "surrender"))
    result = outcome(high)
    assert result is not None and result["surrendered"] and result["defender_points"] == 45
    # tiered, one deck: bid 45 is m = 1, one level → the declarer loses 3
    assert result["stakes"] == ["-3", "1", "1", "1"]


# ------------------------------------------------------------------ bottom and burying


def test_the_declarer_takes_and_buries_6_with_one_deck():
    hand = dealt("S3 S4", "S5 S6", "S8 S9", "SJ SQ", bottom=SIX, preset="one_deck")
    hand.apply(Action(0, "bid", points=40))
    for seat in (1, 2, 3):
        hand.apply(Action(seat, "pass"))
    assert len(hand.hands[0]) == 8
    hand.apply(Action(0, "trump", suit="H"))
    with pytest.raises(IllegalAction) as refusal:
        hand.apply(Action(0, "bury", cards=cards("S3 S4 D3 D4 D6 D8 D9 C3")))
    assert refusal.value.code == "wrong_count"
    assert refusal.value.facts["wanted"] == 6 and "6" in refusal.value.message
    hand.apply(Action(0, "bury", cards=cards(SIX)))
    assert hand.phase == "play" and len(hand.buried) == 6


def test_two_decks_still_bury_8():
    hand = dealt("S3 S4", "S5 S6", "S8 S9", "SJ SQ")
    hand.apply(Action(0, "bid", points=80))
    for seat in (1, 2, 3):
        hand.apply(Action(seat, "pass"))
    hand.apply(Action(0, "trump", suit="H"))
    with pytest.raises(IllegalAction) as refusal:
        hand.apply(Action(0, "bury", cards=cards(SIX)))
    assert refusal.value.facts["wanted"] == 8


def test_the_auto_bury_of_one_deck_buries_the_6_lowest():
    hand = dealt(
        "BJ HA S3", "S5 S6", "S8 S9", "SJ SQ", bottom="SA SK C4 C5 H3 D4", preset="one_deck"
    )
    hand.apply(Action(0, "bid", points=40))
    for seat in (1, 2, 3):
        hand.apply(Action(seat, "pass"))
    hand.apply(Action(0, "trump", suit="H"))
    events = hand.apply(Action(0, "timeout"))
    assert Buried(0) in events
    assert sorted(c.text for c in hand.buried) == sorted(["S3", "C4", "C5", "D4", "SK", "SA"])
    assert sorted(c.text for c in hand.hands[0]) == ["BJ", "H3", "HA"]


def test_the_auto_trump_of_one_deck_counts_the_declarers_18():
    hand = ERQIWANG.deal(ERQIWANG.rules("one_deck"), seed=21)
    hand.apply(Action(0, "bid", points=60))
    for seat in (1, 2, 3):
        hand.apply(Action(seat, "pass"))
    held = list(hand.hands[0])
    assert len(held) == 18
    hand.apply(Action(0, "timeout"))
    counts = Counter(c.suit for c in held if c.suit)
    best = max(counts.values())
    order = ("D", "C", "H", "S")  # ties ♠ > ♥ > ♣ > ♦
    assert hand.trump == max((s for s in counts if counts[s] == best), key=order.index)


# ------------------------------------------------------------------ records


def _deal_json(decks: int, seed: int = 4) -> dict[str, list[object]]:
    deal = deal_from_seed(seed, decks)
    return {
        "hands": [[c.text for c in h] for h in deal.hands],
        "bottom": [c.text for c in deal.bottom],
    }


def test_a_one_deck_record_reads_12_card_hands_and_a_bottom_of_6():
    deal = read_deal(_deal_json(1), decks=1)
    assert [len(h) for h in deal.hands] == [12] * 4 and len(deal.bottom) == 6
    with pytest.raises(RecordError) as error:
        read_deal(_deal_json(2), decks=1)
    assert error.value.code == "bad_deal" and "12" in error.value.message
    with pytest.raises(RecordError):
        read_deal(_deal_json(1), decks=2)


def test_a_one_deck_record_replays_from_its_deal_and_from_a_seed():
    record = {"game": "erqiwang", "rules": {"preset": "one_deck"}, "deal": _deal_json(1),
              "actions": [{"seat": 0, "act": "bid", "points": 60},
                          *({"seat": s, "act": "pass"} for s in (1, 2, 3)),
                          {"seat": 0, "act": "trump", "suit": "S"},
                          {"seat": 0, "act": "timeout"}]}  # fmt: skip
    output = replay_record(record)
    assert all(v["ok"] for v in output["actions"])
    assert output["result"]["phase"] == "play"
    seeded = replay_record(
        {
            "game": "erqiwang",
            "rules": {"preset": "classic", "options": {"decks": 1, "bid_max": 60}},
            "seed": 4,
            "actions": record["actions"],
        }
    )
    assert seeded == output


# ------------------------------------------------------------------ settlement halved


@pytest.mark.parametrize(
    ("bid", "points", "amount"),
    [
        (40, 65, -12),  # m 2 (25–40), levels ⌊25/20⌋ + 1 = 2
        (40, 40, -6),  # m 2, one level
        (40, 35, 6),
        (40, 0, 18),  # levels ⌊40/20⌋ + 1 = 3
        (60, 45, 3),  # m 1 (45–60)
        (45, 100, -9),  # m 1, levels ⌊55/20⌋ + 1 = 3
        (20, 0, 24),  # m 4 (5–20), levels 2
        (5, 25, -24),  # m 4, levels ⌊20/20⌋ + 1 = 2
        (0, 5, -24),  # m 8
    ],
)
def test_tiered_with_one_deck_halves_bands_and_levels(bid, points, amount):
    assert tiered(bid, points, decks=1) == amount


def test_online_with_one_deck_halves_bands_sweeps_and_steps():
    assert online(40, 25, decks=1) == 3  # m 1 for bids ≥ 35
    assert online(40, 20, decks=1) == 6  # 小光 ≤ 20
    assert online(40, 0, decks=1) == 12  # 大光
    assert online(40, 40, decks=1) == -3
    assert online(40, 60, decks=1) == -6  # a full 20 above the bid
    assert online(30, 15, decks=1) == 12  # m 2 (25–30), 小光 at half the bid rounded up: 15
    assert small_sweep_limit(30, decks=1) == 15 and small_sweep_limit(25, decks=1) == 15
    assert small_sweep_limit(35, decks=1) == 20
    assert online(30, 50, decks=1) == -12  # m 2, one full 20 above
    assert online(20, 40, decks=1) == -36  # m 4, two full 10s above


def test_proportional_with_one_deck_uses_100_in_place_of_200():
    assert proportional(40, 35, decks=1) == 36  # 3 · 60 / 5
    assert proportional(40, 55, decks=1) == -33  # −3 · 55 / 5


SEAT0 = "S10 SK C10"
SEAT1 = "BJ LJ H2"
SEAT2 = "S5 SQ CK"
SEAT3 = "D10 DK C4"


def _played_one_deck_hand(scoring: str) -> dict[str, object]:
    hand = one_deck(SEAT0, SEAT1, SEAT2, SEAT3, bid=40, scoring=scoring)
    trick(hand, "S10", "BJ", "S5", "D10")  # 25 to seat 1 (ruffed)
    trick(hand, "LJ", "SQ", "DK", "SK")  # 20
    trick(hand, "H2", "CK", "C4", "C10")  # 20, the last trick, won with a trump
    result = outcome(hand)
    assert result is not None
    return result


@pytest.mark.parametrize(
    ("scoring", "stakes"),
    [
        ("tiered", ["-12", "4", "4", "4"]),  # m 2, levels ⌊25/20⌋ + 1 = 2 → 3·2·2
        ("online", ["-6", "2", "2", "2"]),  # m 1 (bid ≥ 35), +1 for one full 20 above
        ("proportional", ["-39", "13", "13", "13"]),  # −3 · 65 / 5
    ],
)
def test_a_one_deck_hand_played_to_its_settlement(scoring, stakes):
    result = _played_one_deck_hand(scoring)
    assert result["defender_points"] == 65 and result["declarer_won"] is False
    assert result["bottom_multiplier"] == 1 and result["bottom_points"] == 0
    assert result["stakes"] == stakes and result["total"] == stakes
    assert result["bonus"] == ["0"] * 4 and result["bonus_points"] == 0
