"""rules-erqiwang.md: Combinations — pairs, tractors (拖拉机), throws (甩牌)."""

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import ALL_CARDS
from engine.erqiwang.leads import (
    THROW_IF_UNBEATABLE,
    TrumpThreats,
    _may_hold_safe_throw,
    threat_of,
    throw_candidates,
)
from engine.erqiwang.order import ORDERS, TRUMP
from engine.erqiwang.shapes import is_tractor, shape_of
from engine.errors import IllegalAction
from tests.erqiwang.helpers import cards, play, playing, refused_play
from tests.record_actions import Action


def tractor(text: str, trump: str | None = "H") -> bool:
    return is_tractor(cards(text), ORDERS[trump])


def test_a_pair_is_two_identical_cards():
    order = ORDERS["H"]
    assert shape_of(cards("LJ LJ"), order).signature == ((), 1, 0)
    assert shape_of(cards("S9 S9"), order).signature == ((), 1, 0)


def test_two_side_7s_of_different_suits_are_not_a_pair():
    assert shape_of(cards("S7 C7"), ORDERS["H"]).signature == ((), 0, 2)


@pytest.mark.parametrize(
    ("text", "trump"),
    [
        ("S5 S5 S6 S6", "H"),
        ("SJ SJ SQ SQ", "H"),
        ("S6 S6 S8 S8", "H"),
        ("C7 C7 H7 H7", "H"),
        ("LJ LJ BJ BJ", "H"),
        ("HA HA S2 S2", "H"),
        ("H2 H2 S7 S7", "H"),
        ("H7 H7 LJ LJ", "H"),
        ("S2 S2 H2 H2", "H"),
        ("H2 H2 H7 H7", None),
        ("D7 D7 LJ LJ BJ BJ", None),
    ],
)
def test_these_are_tractors(text, trump):
    assert tractor(text, trump)


@pytest.mark.parametrize(
    ("text", "trump"),
    [
        ("S6 S6 S7 S7", "H"),
        ("S7 S7 C7 C7", "H"),
        ("S7 S7 H7 H7", None),
        ("S5 S5 S8 S8", "H"),
        ("S5 S5 H6 H6", "D"),
        ("LJ LJ BJ", "H"),
    ],
)
def test_these_are_not_tractors(text, trump):
    assert not tractor(text, trump)


def test_a_throws_components_are_the_longest_tractors_first_then_pairs_then_singles():
    shape = shape_of(cards("BJ BJ LJ LJ H7 H7 H5 H5 H3"), ORDERS["H"])
    assert [t[:2] for t in shape.tractors] == [(3, 16)]
    assert [p for p, _ in shape.pairs] == [2]
    assert [p for p, _ in shape.singles] == [0]


def test_side_suit_pairs_may_not_be_combined_aaqq_is_refused():
    hand = playing("SA SA SQ SQ S3", "D5 D6 D8 D9 D10", "C5 C6 C8 C9 C10", "H3 H4 H5 H6 H8")
    assert refused_play(hand, 0, "SA SA SQ SQ") == "throw_not_allowed"


def test_a_single_with_a_side_pair_akk_is_refused():
    hand = playing("SA SK SK S3 S4", "D5 D6 D8 D9 D10", "C5 C6 C8 C9 C10", "H3 H4 H5 H6 H8")
    assert refused_play(hand, 0, "SA SK SK") == "throw_not_allowed"


def test_a_lead_is_of_one_following_suit():
    hand = playing("SA HA S3 S4", "D5 D6 D8 D9", "C5 C6 C8 C9", "H3 H4 H5 H6")
    assert refused_play(hand, 0, "SA HA") == "not_a_combination"


def test_throw_trump_if_unbeatable_allows_a_throw_no_other_player_can_beat():
    hand = playing("BJ BJ LJ S3", "D5 D6 D8 H3", "C5 C6 C8 H4", "S4 S5 S6 H5")
    play(hand, 0, "BJ BJ LJ")
    assert hand.lead_shape is not None and hand.lead_shape.components == 2


def test_throw_trump_if_unbeatable_refuses_a_throw_whose_single_can_be_beaten():
    hand = playing("BJ BJ H3 S3", "D5 D6 D8 H4", "C5 C6 C8 LJ", "S4 S5 S6 H5")
    assert refused_play(hand, 0, "BJ BJ H3") == "throw_not_allowed"


def test_throw_trump_if_unbeatable_refuses_a_pair_another_player_beats_with_a_pair():
    hand = playing("H5 H5 BJ S3", "D5 D6 H6 H6", "C5 C6 C8 H4", "S4 S5 S6 S8")
    assert refused_play(hand, 0, "H5 H5 BJ") == "throw_not_allowed"


def test_throw_trump_if_unbeatable_a_beatable_tractor_refuses_the_throw():
    hand = playing("H5 H5 H6 H6 BJ", "H8 H8 H9 H9 D3", "C5 C6 C8 C9 C10", "S4 S5 S6 S8 S9")
    assert refused_play(hand, 0, "H5 H5 H6 H6 BJ") == "throw_not_allowed"


def test_throw_trump_when_others_void_only_when_all_three_others_hold_no_trump():
    hands = ("BJ H3 H4 S3", "D5 D6 D8 D9", "C5 C6 C8 C9", "S4 S5 S6 S8")
    hand = playing(*hands, preset="online", bid=80)
    play(hand, 0, "BJ H3 H4")
    assert hand.lead_shape is not None and hand.lead_shape.components == 3
    hands_with_trump = ("BJ H3 H4 S3", "D5 D6 D8 D2", "C5 C6 C8 C9", "S4 S5 S6 S8")
    hand = playing(*hands_with_trump, preset="online", bid=80)
    assert refused_play(hand, 0, "BJ H3 H4") == "throw_not_allowed"


def test_throw_none_refuses_every_throw():
    hand = playing("BJ BJ LJ S3", "D5 D6 D8 H3", "C5 C6 C8 H4", "S4 S5 S6 H5", throw="none")
    assert refused_play(hand, 0, "BJ BJ LJ") == "throw_not_allowed"


def test_a_refused_throw_gives_the_reason_and_the_player_plays_again_without_penalty():
    hand = playing("BJ BJ H3 S3", "D5 D6 D8 H4", "C5 C6 C8 LJ", "S4 S5 S6 H5")
    with pytest.raises(IllegalAction) as refusal:
        hand.apply(Action(0, "play", cards=cards("BJ BJ H3")))
    assert "H3" in refusal.value.message
    play(hand, 0, "BJ BJ")  # the same player leads again
    assert hand.turn == 1


@settings(max_examples=400, deadline=None)
@given(
    picks=st.lists(st.sampled_from(ALL_CARDS), min_size=1, max_size=14),
    doubled=st.lists(st.booleans(), min_size=14, max_size=14),
    trump=st.sampled_from(["S", "H", "C", "D", None]),
    seed=st.integers(0, 2**16),
)
def test_a_shape_splits_any_play_whole_and_orders_its_singles_highest_first(
    picks, doubled, trump, seed
):
    """Any cards (two decks: at most two of a card), of one following-suit or not: every card
    is in one component, a pair is two copies, the singles come highest first (by level, then
    by the order's key), and the order the cards come in changes nothing — two different cards
    included, which take a short way."""
    order = ORDERS[trump]
    distinct = list(dict.fromkeys(picks))
    played = [c for c, two in zip(distinct, doubled, strict=False) for _ in range(1 + two)]
    shape = shape_of(played, order)
    parts = [c for _, _, run in shape.tractors for c in run]
    parts += [c for _, c in shape.pairs for _ in range(2)]
    parts += [c for _, c in shape.singles]
    assert Counter(parts) == Counter(played) and shape.size == len(played)
    assert all(order.position[c] == p for p, c in shape.pairs + shape.singles)
    singles = [c for _, c in shape.singles]
    assert singles == sorted(singles, key=lambda c: (order.position[c], order.key[c]), reverse=True)
    assert len(set(singles)) == len(singles) and not set(singles) & {c for _, c in shape.pairs}
    mixed = random.Random(seed).sample(played, len(played))
    again = shape_of(mixed, order)
    assert (again.tractors, again.pairs, again.singles) == (
        shape.tractors,
        shape.pairs,
        shape.singles,
    )


def test_the_natural_throw_is_every_component_no_other_player_could_beat_alone():
    """Where the cheap pre-test lets a lead's trumps through, the natural throw listed is the
    trumps' components that `TrumpThreats.beatable` passes one by one (the table's own
    judgement), put together when they are two components or more — the short way for a
    throw holding a safe single included."""
    rng = random.Random(7)
    listed = 0
    for _ in range(3000):
        order = ORDERS[rng.choice(["S", "H", "C", "D", None])]
        trumps_all = [c for c in ALL_CARDS if order.suit[c] == TRUMP] * 2
        rng.shuffle(trumps_all)
        cut = sorted(rng.sample(range(len(trumps_all)), 3))
        leader, *rest = (trumps_all[a:b] for a, b in zip([0, *cut], cut, strict=False))
        leader = leader[: rng.randint(2, 9)]
        threats = [threat_of(held[: rng.randint(0, 8)], order) for held in rest]
        own = threat_of(leader, order)
        got = throw_candidates(leader, order, THROW_IF_UNBEATABLE, threats, own)
        if not _may_hold_safe_throw(leader, order, threats, None):
            assert got == []
            continue
        shape = shape_of(leader, order)
        parts = [list(run) for _, _, run in shape.tractors]
        parts += [[c, c] for _, c in shape.pairs] + [[c] for _, c in shape.singles]
        judge = TrumpThreats(threats)
        safe = [c for part in parts if judge.beatable(shape_of(part, order)) is None for c in part]
        whole = len(safe) >= 2 and shape.components > 1 and shape_of(safe, order).components > 1
        assert got == ([tuple(safe)] if whole else [])
        listed += bool(got)
    assert listed > 100
