"""rules-situan.md: Presets and options; what a seat may know (view)."""

import pytest

from engine.errors import RecordError
from engine.situan import Rules, SituanHand
from engine.situan.combos import RANK_COUNT, RANK_INDEX
from engine.situan.views import SituanView
from tests.record_actions import Action
from tests.situan.helpers import cards, pass_, play, refused, table


def test_preset_nanchang_is_the_default_rule_set():
    rules = Rules.from_preset()
    assert rules.preset == "nanchang"
    assert (rules.lead_after_out, rules.first_leader, rules.announce_at) == ("next", "flip", 11)
    assert (rules.show_multiplier, rules.early_end, rules.dun_counted) == (1, True, "dealt")
    assert str(rules.dun_value) == "1/2" and rules.turn_seconds == 60


def test_preset_spade3_differs_only_in_first_leader():
    spade3, nanchang = Rules.from_preset("spade3").options(), Rules.from_preset().options()
    assert spade3 == {**nanchang, "first_leader": "spade3"}


def test_preset_baomahui_doubles_the_stakes_of_a_show():
    assert Rules.from_preset("baomahui").show_multiplier == 2


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("lead_after_out", "partner"),
        ("first_leader", "spade3"),
        ("announce_at", 5),
        ("show_multiplier", 3),
        ("early_end", False),
        ("dun_counted", "played"),
        ("turn_seconds", 20),
    ],
)
def test_every_option_can_be_set_one_by_one(option, value):
    assert getattr(Rules.from_preset("nanchang", **{option: value}), option) == value


@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("tangren", {}),
        ("nanchang", {"colour": "red"}),
        ("nanchang", {"dun_counted": "x"}),
        ("nanchang", {"announce_at": -1}),
        ("nanchang", {"dun_value": "half"}),
        ("nanchang", {"early_end": "maybe"}),
    ],
)
def test_unknown_presets_options_and_values_are_bad_rules(preset, options):
    with pytest.raises(RecordError) as error:
        Rules.from_preset(preset, **options)
    assert error.value.code == "bad_rules"


def test_a_seats_view_holds_its_own_hand_and_no_other():
    hand = table("3 4", "5 6", "7 8", "9 10")
    assert hand.view(2).hand == cards("S7 S8")
    assert hand.view(2).known_cards() == cards("S7 S8")
    assert hand.view(None).hand == ()


def test_seat_views_share_the_public_view_of_the_same_moment_and_no_later_one():
    hand = table("3 4", "5 6", "7 8", "9 10")
    public, seat_view = hand.view(None), hand.view(2)
    private = {"seat", "hand", "hand_counts", "show_seen"}
    for name in set(SituanView.__slots__) - private:
        assert getattr(seat_view, name) is getattr(public, name), name
    play(hand, 0, "3")
    later = hand.view(None)
    assert later is not public and later.round_plays != public.round_plays
    assert hand.view(0).hand == cards("S4") and hand.view(2).hand == cards("S7 S8")
    by_rank = [0] * RANK_COUNT
    for card in hand.view(2).hand:
        by_rank[RANK_INDEX[card.rank]] += 1
    assert hand.view(2).hand_counts == tuple(by_rank) and hand.view(None).hand_counts == ()


def test_the_bottom_is_hidden_until_the_hand_ends():
    hand = table("3", "4 4", "5", "6 6", bottom="K K")
    assert hand.view(0).bottom == ()
    play(hand, 0, "3")
    play(hand, 1, "4")
    play(hand, 2, "5")
    assert hand.over and hand.view(None).bottom == cards("SK HK")


def test_nothing_can_be_done_after_the_hand_is_over():
    hand = table("3", "4 4", "5", "6 6")
    for step in ((0, "3"), (1, "4"), (2, "5")):
        play(hand, *step)
    assert refused(hand, Action(3, "play", cards=cards("S6"))) == "wrong_phase"
    assert refused(hand, Action(3, "show_start")) == "wrong_phase"


def test_a_bad_seat_or_unknown_act_is_bad_action():
    hand = table("3", "4 4", "5", "6 6")
    assert refused(hand, Action(7, "pass")) == "bad_action"
    assert refused(hand, Action(0, "dance")) == "bad_action"


def test_cards_not_held_are_not_in_hand_exact_cards_or_ranks():
    hand = table("3 4", "5", "6", "7")
    # A suited card means its rank (hand-record.md): H3 would take the S3 held, so only too
    # few of a rank is not_in_hand.
    assert refused(hand, Action(0, "play", cards=cards("H3 S3"))) == "not_in_hand"
    assert refused(hand, Action(0, "play", ranks=(0, 0))) == "not_in_hand"


def test_not_your_turn_comes_before_the_combination_checks():
    hand = table("3 4", "5", "6", "7")
    assert refused(hand, Action(1, "play", cards=cards("S5 S5"))) == "not_your_turn"


def test_a_hand_can_be_dealt_from_a_seed():
    hand = SituanHand.from_seed(Rules.from_preset(), seed=3)
    assert sum(hand.held) == 156


def test_every_play_and_pass_of_the_hand_is_public_in_order():
    """What a player at the table has seen, rounds ended included (the ``hard`` player
    reads the hidden hands from it)."""
    hand = table("3 4 9", "5 6", "7 8", "10 J")
    for seat, text in ((0, "3"), (1, "5"), (2, "7"), (3, "10")):
        play(hand, seat, text)
    for seat in (0, 1, 2):
        pass_(hand, seat)
    play(hand, 3, "J")
    plays = [(seat, None if combo is None else combo.rank) for seat, combo in hand.view(1).plays]
    r = RANK_INDEX
    assert plays == [
        (0, r["3"]),
        (1, r["5"]),
        (2, r["7"]),
        (3, r["10"]),
        (0, None),
        (1, None),
        (2, None),
        (3, r["J"]),
    ]
    assert hand.view(0).plays is hand.view(None).plays and hand.view(1).round_plays != plays
