"""The hand picture: every card legible within a phone-sized width."""

from __future__ import annotations

import itertools

from bot.pictures import CardFace, HandPicture, faces, render_hand
from bot.pictures.cards import HAND_CARD
from bot.pictures.fan import fan_offsets, split_rows
from bot.pictures.hand import CARDS_PER_ROW, rank_groups
from bot.pictures.samples import erqiwang_hand, situan_hand
from bot.pictures.theme import MARGIN, MAX_WIDTH

from .conftest import open_png


def test_a_39_card_situan_hand_fits_a_phone_width() -> None:
    image = open_png(render_hand(situan_hand(seed=3)))
    assert image.width <= 1080
    assert 300 <= image.height <= 1000


def test_a_33_card_erqiwang_hand_fits_a_phone_width() -> None:
    picture = erqiwang_hand(seed=3)
    assert len(picture.cards) == 33
    image = open_png(render_hand(picture))
    assert image.width <= 1080
    assert 400 <= image.height <= 1200


def test_every_erqiwang_card_of_a_33_card_hand_shows_its_corner_index() -> None:
    for row in split_rows(33, CARDS_PER_ROW):
        offsets = fan_offsets(len(row), HAND_CARD, MAX_WIDTH - 2 * MARGIN, frozenset({4}))
        steps = [after - before for before, after in itertools.pairwise(offsets)]
        assert min(steps) >= HAND_CARD.visible_strip
        assert offsets[-1] + HAND_CARD.width <= MAX_WIDTH - 2 * MARGIN


def test_situan_cards_are_grouped_by_rank_low_to_high_with_counts() -> None:
    cards = faces("S2 H3 BJ C3 LJ D10 S10 H10 3 LJ")
    groups = rank_groups(cards)
    assert [(face.rank, count) for face, count in groups] == [
        ("3", 3),
        ("10", 3),
        ("2", 1),
        ("LJ", 2),
        ("BJ", 1),
    ]
    assert all(face.suit == "" for face, _ in groups)


def test_a_situan_hand_of_many_ranks_takes_two_rows_and_few_ranks_one() -> None:
    few = open_png(render_hand(HandPicture("by_rank", "甲", faces("3 3 4"))))
    many = open_png(render_hand(situan_hand(seed=5)))
    assert many.height > few.height


def test_suit_groups_leave_a_gap_in_the_erqiwang_fan() -> None:
    plain = fan_offsets(6, HAND_CARD, 600)
    grouped = fan_offsets(6, HAND_CARD, 600, frozenset({3}))
    gaps = [b - a for a, b in itertools.pairwise(grouped)]
    assert gaps[2] > gaps[1]
    assert grouped[-1] == plain[-1]  # the gap is taken from the overlap, not added in width


def test_an_empty_hand_still_renders_its_title() -> None:
    image = open_png(render_hand(HandPicture("as_held", "李四", ())))
    assert image.width <= 1080
    assert image.height < 200


def test_card_notation_parses_like_the_engine_writes_it() -> None:
    assert faces("S10 hA lj BJ 7") == (
        CardFace("10", "S"),
        CardFace("A", "H"),
        CardFace("LJ"),
        CardFace("BJ"),
        CardFace("7"),
    )
    assert CardFace("BJ").is_red and not CardFace("LJ").is_red
    assert CardFace("LJ").joker_label == "小王"
    assert CardFace("BJ", label="Joker").joker_label == "Joker"
