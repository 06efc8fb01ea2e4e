"""rules-erqiwang.md: Leading and following; Who wins a trick."""

import random
from collections import Counter
from itertools import combinations, pairwise, permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import game_of
from engine.actions import Auto, Bury, DeclareBonus, Play, Surrender, listed_aside
from engine.cards import ALL_CARDS, Card
from engine.erqiwang.events import TrickWon
from engine.erqiwang.follow import follow_error, legal_follows, listed_follow
from engine.erqiwang.legal import LegalActions, listed_play
from engine.erqiwang.order import ORDERS, TRUMP
from engine.erqiwang.shapes import shape_of
from tests.erqiwang.helpers import play, playing, refused_play, trick


def test_the_declarer_leads_the_first_trick():
    hand = playing("S3 S4", "S5 S6", "S8 S9", "SJ SQ", declarer=2)
    assert hand.turn == 2


def test_the_winner_of_each_trick_leads_the_next():
    hand = playing("S3 S4", "SA S6", "S8 S9", "SJ SQ")
    trick(hand, "S3", "SA", "S8", "SJ")
    assert hand.turn == 1


def test_a_follower_plays_exactly_as_many_cards_as_the_lead():
    hand = playing("S3 S3 D4", "S5 S6 S8", "S9 S9 C3", "SJ SQ C4")
    play(hand, 0, "S3 S3")
    assert refused_play(hand, 1, "S5") == "wrong_count"


def test_holding_enough_of_the_led_suit_the_play_must_be_all_of_it():
    hand = playing("S3 D4", "S5 H6", "S8 C3", "SJ C4")
    play(hand, 0, "S3")
    assert refused_play(hand, 1, "H6") == "must_follow_suit"


def test_a_pair_led_must_be_answered_with_a_pair_if_any():
    hand = playing("S3 S3 D4", "S5 S6 S6", "S8 S9 C3", "SJ SQ C4")
    play(hand, 0, "S3 S3")
    assert refused_play(hand, 1, "S5 S6") == "must_follow_shape"
    play(hand, 1, "S6 S6")


def test_a_tractor_led_must_be_answered_with_a_tractor_if_any():
    hand = playing("S3 S3 S4 S4", "S5 S5 S6 S6 SK SK", "S8 S9 C3 C4", "SJ SQ C5 C6")
    play(hand, 0, "S3 S3 S4 S4")
    assert refused_play(hand, 1, "S5 S5 SK SK") == "must_follow_shape"
    play(hand, 1, "S5 S5 S6 S6")


def test_a_three_pair_tractor_answered_by_the_only_two_pairs_plus_two_other_cards():
    hand = playing(
        "S3 S3 S4 S4 S5 S5", "SK SK S9 S9 SA SJ SQ", "D3 D4 D5 D6 D8 D9", "C3 C4 C5 C6 C8 C9"
    )
    play(hand, 0, "S3 S3 S4 S4 S5 S5")
    assert refused_play(hand, 1, "SK SK S9 SA SJ SQ") == "must_follow_shape"
    play(hand, 1, "SK SK S9 S9 SA SJ")


def test_a_tractor_led_is_answered_with_the_longest_tractor_held_then_pairs():
    hand = playing(
        "S3 S3 S4 S4 S5 S5", "S8 S8 S9 S9 SK SK SA", "D3 D4 D5 D6 D8 D9", "C3 C4 C5 C6 C8 C9"
    )
    play(hand, 0, "S3 S3 S4 S4 S5 S5")
    assert refused_play(hand, 1, "S8 S8 S9 SK SK SA") == "must_follow_shape"
    play(hand, 1, "S8 S8 S9 S9 SK SK")


def test_holding_fewer_of_the_led_suit_all_of_them_plus_any_other_cards():
    hand = playing("S3 S3 D4", "S5 H6 C8", "S8 S9 C3", "SJ SQ C4")
    play(hand, 0, "S3 S3")
    assert refused_play(hand, 1, "H6 C8") == "must_follow_suit"
    play(hand, 1, "S5 C8")


def test_a_follower_void_in_a_side_suit_may_ruff_or_discard():
    hand = playing("S3 S4", "H5 D6", "D8 C3", "S5 C4")
    trick(hand, "S3", "H5", "D8", "S5")  # seat 1 ruffs with a trump, seat 2 discards
    assert hand.last_trick and hand.turn == 1


def test_only_plays_of_the_leads_exact_shape_can_win():
    hand = playing("S3 S3 D4", "H5 H6 C8", "S8 S9 C3", "SJ SQ C4")
    events = trick(hand, "S3 S3", "H5 H6", "S8 S9", "SJ SQ")  # two trump singles are no pair
    assert [e for e in events if isinstance(e, TrickWon)] == [TrickWon(0, 5, False)]


def test_a_higher_play_of_the_led_suit_and_shape_wins():
    hand = playing("S3 D4", "SA D5", "SK C3", "SQ C4")
    events = trick(hand, "S3", "SA", "SK", "SQ")
    assert [e for e in events if isinstance(e, TrickWon)] == [TrickWon(1, 10, True)]


def test_a_ruff_beats_a_side_lead_and_a_later_ruff_must_beat_it_strictly():
    hand = playing("SA D4", "H3 D5", "H4 C3", "S3 C4")
    events = trick(hand, "SA", "H3", "H4", "S3")
    assert [e.seat for e in events if isinstance(e, TrickWon)] == [2]


def test_at_equal_level_the_earlier_play_wins_two_side_7s():
    hand = playing("SA D4", "C7 D5", "D7 C3", "S3 C4")
    events = trick(hand, "SA", "C7", "D7", "S3")
    assert [e.seat for e in events if isinstance(e, TrickWon)] == [1]


def test_a_discard_never_wins():
    hand = playing("S3 D4", "DA D5", "C3 C5", "S4 C4")
    events = trick(hand, "S3", "DA", "C3", "S4")
    assert [e.seat for e in events if isinstance(e, TrickWon)] == [3]


def test_an_allowed_throw_always_wins_its_trick():
    hand = playing("BJ BJ LJ S3", "D5 D6 D8 H3", "C5 C6 C8 H4", "S4 S5 S6 H5")
    events = trick(hand, "BJ BJ LJ", "D5 D6 H3", "C5 C6 H4", "S4 S5 H5")
    assert [e.seat for e in events if isinstance(e, TrickWon)] == [0]


def test_the_tricks_point_cards_go_to_its_winners_side():
    hand = playing("S3 D4", "SK D5", "S10 C3", "S5 C4")
    trick(hand, "S3", "SK", "S10", "S5")
    assert hand.trick_points_for_defenders == 25


# --- the formal follow rule, checked by brute force ---------------------------------------


def _tractors_in(pairs: list[tuple[int, Card]]) -> list[list[tuple[int, Card]]]:
    """Every tractor (≥ 2 pairs, consecutive positions, one pair each) among these pairs."""
    found = []
    for size in range(2, len(pairs) + 1):
        for combo in combinations(pairs, size):
            positions = sorted(p for p, _ in combo)
            if all(b == a + 1 for a, b in pairwise(positions)):
                found.append(list(combo))
    return found


def formal_score(play: list[Card], order, lead) -> tuple[int, int]:
    """The rule page's score, computed from its words by brute force."""
    counts = Counter(play)
    pairs = [(order.position[c], c) for c, n in counts.items() if n >= 2]
    lead_lengths = [t[0] for t in lead.tractors]
    best_a = 0

    def search(available, used_pairs, chosen_lengths):
        nonlocal best_a
        if chosen_lengths and any(
            all(length <= lead_lengths[i] for length, i in zip(chosen_lengths, perm, strict=False))
            for perm in permutations(range(len(lead_lengths)), len(chosen_lengths))
        ):
            best_a = max(best_a, sum(chosen_lengths))
        if len(chosen_lengths) >= len(lead_lengths):
            return
        for t in _tractors_in(available):
            rest = [p for p in available if p not in t]
            search(rest, used_pairs + t, [*chosen_lengths, len(t)])

    search(pairs, [], [])
    b = min(len(pairs) - best_a, lead.pair_total - best_a)
    return best_a, b


def formal_legal_follows(hand: list[Card], lead_cards: list[Card], order) -> set[tuple[Card, ...]]:
    lead = shape_of(lead_cards, order)
    suit = order.suit[lead_cards[0]]
    held = [c for c in hand if order.suit[c] == suit]
    n = len(lead_cards)

    def key(cs):
        return tuple(sorted(cs, key=lambda c: c.text))

    if len(held) < n:
        others = [c for c in hand if order.suit[c] != suit]
        return {key(held + list(extra)) for extra in combinations(others, n - len(held))}
    choices = {key(p) for p in combinations(held, n)}
    scores = {p: formal_score(list(p), order, lead) for p in choices}
    best = max(scores.values())
    return {p for p, s in scores.items() if s == best}


TRUMP_POOL = [c for c in ALL_CARDS if ORDERS["H"].suit[c] == TRUMP]
SPADES = [c for c in ALL_CARDS if ORDERS["H"].suit[c] == "S"]


@st.composite
def follow_case(draw, shortest=1):
    """A follower's hand and a lead; it holds at least ``len(lead) - shortest`` of the led
    suit."""
    suit_pool = draw(st.sampled_from([SPADES, TRUMP_POOL]))
    lead_kind = draw(st.sampled_from(["pair", "tractor2", "tractor3", "throw"]))
    order = ORDERS["H"]
    if lead_kind == "throw":
        suit_pool = TRUMP_POOL
    ladder = sorted({order.position[c]: c for c in suit_pool}.items())
    if lead_kind == "pair":
        c = draw(st.sampled_from(suit_pool))
        lead = [c, c]
    elif lead_kind == "throw":
        top = [c for c in TRUMP_POOL if c.rank in ("BJ", "LJ")]
        single = draw(st.sampled_from([c for c in TRUMP_POOL if not c.is_joker]))
        lead = [top[0], top[0], top[1], top[1], single]  # two packs: jokers come in twos
    else:
        length = 2 if lead_kind == "tractor2" else 3
        start = draw(st.integers(0, len(ladder) - length))
        lead = [c for _, c in ladder[start : start + length] for _ in range(2)]
    # The follower: cards of the led suit with repeats (pairs), and a few others.
    pool = suit_pool * 2
    size = draw(st.integers(max(0, len(lead) - shortest), len(lead) + 4))
    held = draw(
        st.lists(st.sampled_from(range(len(pool))), min_size=size, max_size=size, unique=True)
    )
    follower = [pool[i] for i in held]
    follower += draw(
        st.lists(
            st.sampled_from([c for c in ALL_CARDS if c.suit == "D" and order.suit[c] == "D"]),
            max_size=3,
            unique=True,
        )
    )
    return follower, lead


@settings(max_examples=150, deadline=None)
@given(case=follow_case())
def test_a_followers_legal_plays_are_exactly_those_the_formal_rule_admits(case):
    follower, lead_cards = case
    order = ORDERS["H"]
    lead = shape_of(lead_cards, order)
    suit = order.suit[lead_cards[0]]
    expected = formal_legal_follows(follower, lead_cards, order)
    held = [c for c in follower if order.suit[c] == suit]
    generated = {
        tuple(sorted(p, key=lambda c: c.text))
        for p in legal_follows(follower, held, lead, suit, order)
    }
    assert generated == expected
    every = {
        tuple(sorted(p, key=lambda c: c.text)) for p in combinations(follower, len(lead_cards))
    }
    for p in every:
        assert (follow_error(p, held, lead, suit, order) is None) == (p in expected)


DIAMONDS = [c for c in ALL_CARDS if c.suit == "D" and ORDERS["H"].suit[c] == "D"]


@settings(max_examples=150, deadline=None)
@given(
    case=follow_case(shortest=6),
    fillers=st.lists(st.sampled_from(DIAMONDS), max_size=6),
    shuffle_seed=st.integers(0, 2**16),
)
def test_a_follow_given_in_any_order_is_found_in_the_listed_order(case, fillers, shuffle_seed):
    """`listed_follow` puts a legal follow's cards in the order `legal_follows` lists them,
    so one play is found without listing them all (fillers may repeat: two packs)."""
    follower, lead_cards = case
    follower = [c for c in follower if c.suit != "D"] + fillers
    order = ORDERS["H"]
    lead = shape_of(lead_cards, order)
    suit = order.suit[lead_cards[0]]
    held = [c for c in follower if order.suit[c] == suit]
    shuffler = random.Random(shuffle_seed)
    for listed in legal_follows(follower, held, lead, suit, order):
        given_order = list(listed)
        shuffler.shuffle(given_order)
        assert listed_follow(given_order, follower, held, lead, suit, order) == listed


def test_a_follow_to_several_cards_is_judged_in_the_list_without_listing_it():
    """`LegalActions` (a lead of several cards answered) lists its follows only when read;
    membership and `listed_play` answer by the rule, and agree with the full list."""
    game = game_of("erqiwang")
    judged = 0
    for seed in range(40):
        hand = game.deal(game.rules(), seed=seed)
        rng = random.Random(seed)
        while not hand.over:
            seat = hand.to_act
            legal = hand.legal_actions(seat)
            if isinstance(legal, LegalActions):
                judge_follows(hand, seat, legal, rng)
                judged += 1
            if hand.phase == "bury":
                hand.apply(Bury(seat, tuple(rng.sample(hand.hands[seat], 8))))
                continue
            plays = [a for a in legal if isinstance(a, Play)]
            turn = [a for a in legal if not isinstance(a, (Auto, DeclareBonus, Surrender))]
            hand.apply(rng.choice(plays or turn))
    assert judged > 50


def judge_follows(hand, seat, legal, rng):
    fresh = hand.legal_actions(seat)  # nothing listed yet: judged by the rule alone
    assert listed_aside(fresh, Auto) is not None and listed_aside(fresh, Surrender) is None
    assert fresh._listed is None  # finding 托管 or surrender listed no follow
    plays = [a for a in legal if isinstance(a, Play)]
    for listed in plays:
        assert listed in fresh
        backwards = tuple(reversed(listed.cards))
        assert listed_play(fresh, backwards) == listed
        if backwards != listed.cards:
            assert Play(seat, backwards) not in fresh  # the listed order only
    size = len(plays[0].cards)
    for _ in range(5):
        some = tuple(rng.sample(hand.cards_of(seat), size))
        is_listed = any(Counter(some) == Counter(p.cards) for p in plays)
        assert (listed_play(fresh, some) is not None) == is_listed
    unplayable = [c for c in hand.cards_of(seat) if all(c not in p.cards for p in plays)]
    assert not unplayable or listed_play(fresh, (unplayable[0],) * size) is None


def test_a_leaders_list_holds_every_single_and_pair_and_listed_play_finds_each_lead():
    """The leader's plays are a plain list, made when asked for (singles, pairs, tractors,
    the natural throws, then the actions aside): every held card is a single lead and every
    identical two a pair, and `listed_play` finds each lead given in any order, and nothing
    that is not listed."""
    game = game_of("erqiwang")
    judged = 0
    for seed in range(40):
        rules = game.rules("one_deck" if seed % 4 == 3 else None)  # one deck: no pairs
        hand = game.deal(rules, seed=seed)
        rng = random.Random(seed)
        while not hand.over:
            seat = hand.to_act
            legal = hand.legal_actions(seat)
            if hand.phase == "play" and hand.lead_shape is None:
                assert type(legal) is list
                judge_leads(hand, seat, legal, rng)
                judged += 1
            if hand.phase == "bury":
                hand.apply(Bury(seat, tuple(rng.sample(hand.hands[seat], rules.bottom_size))))
                continue
            plays = [a for a in legal if isinstance(a, Play)]
            turn = [a for a in legal if not isinstance(a, (Auto, DeclareBonus, Surrender))]
            hand.apply(rng.choice(plays or turn))
    assert judged > 200


def judge_leads(hand, seat, legal, rng):
    listed = [a for a in legal if isinstance(a, Play)]
    assert legal[: len(listed)] == listed  # the plays first, the actions aside after them
    held = hand.cards_of(seat)
    for c in dict.fromkeys(held):
        single = listed_play(legal, (c,))
        assert single is not None and single in listed and single.cards == (c,)
        pair = listed_play(legal, (c, c))
        if held.count(c) >= 2:
            assert pair == Play(seat, (c, c)) and pair in listed
        else:
            assert pair is None and Play(seat, (c, c)) not in listed
    absent = next(c for c in ALL_CARDS if c not in held)
    assert listed_play(legal, (absent,)) is None and Play(seat, (absent,)) not in legal
    for lead in listed:
        assert listed_play(legal, tuple(reversed(lead.cards))) == lead
    assert hand.legal_actions(seat) == legal  # asked again: the same list
    if len(held) >= 2:
        two = tuple(rng.sample(held, 2))
        expected = next((p for p in listed if Counter(p.cards) == Counter(two)), None)
        assert listed_play(legal, two) == expected
