"""The cache, the worker thread, the table and settlement pictures, and clear failures."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from PIL import Image

from bot.pictures import (
    CardFace,
    HandPicture,
    PictureError,
    Play,
    SettlementPicture,
    SettlementRow,
    TablePicture,
    faces,
    render_async,
    render_hand,
    render_settlement,
    render_table,
    samples,
)
from bot.pictures import hand as hand_module
from bot.pictures.settlement import signed
from bot.pictures.theme import WINNER_GOLD, WINNER_TINT

from .conftest import open_png


def count_draws(monkeypatch: pytest.MonkeyPatch) -> list[HandPicture]:
    drawn: list[HandPicture] = []
    real = hand_module.draw_hand

    def counting(picture: HandPicture) -> Image.Image:
        drawn.append(picture)
        return real(picture)

    monkeypatch.setattr(hand_module, "draw_hand", counting)
    return drawn


def test_an_unchanged_hand_comes_from_the_cache_without_redrawing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn = count_draws(monkeypatch)
    first = render_hand(samples.situan_hand(seed=1))
    again = render_hand(samples.situan_hand(seed=1))  # an equal value, a different object
    assert again == first
    assert len(drawn) == 1


def test_a_changed_hand_is_drawn_again(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = count_draws(monkeypatch)
    first = render_hand(samples.situan_hand(seed=1))
    other = render_hand(samples.situan_hand(seed=2))
    assert other != first
    assert len(drawn) == 2


async def test_render_async_draws_off_the_event_loop_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    threads: list[int] = []
    real = hand_module.draw_hand

    def recording(picture: HandPicture) -> Image.Image:
        threads.append(threading.get_ident())
        return real(picture)

    monkeypatch.setattr(hand_module, "draw_hand", recording)
    picture = samples.erqiwang_hand(seed=4)
    png = await render_async(render_hand, picture)
    assert threads and threads[0] != threading.get_ident()
    assert png == render_hand(picture)


def test_a_failure_while_drawing_raises_picture_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(picture: HandPicture) -> Image.Image:
        raise OSError("FreeType exploded")

    monkeypatch.setattr(hand_module, "draw_hand", broken)
    with pytest.raises(PictureError, match="hand") as caught:
        render_hand(samples.situan_hand(seed=1))
    assert isinstance(caught.value.__cause__, OSError)


async def test_a_failure_in_the_worker_thread_reaches_the_caller_as_picture_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(picture: HandPicture) -> Image.Image:
        raise MemoryError

    monkeypatch.setattr(hand_module, "draw_hand", broken)
    with pytest.raises(PictureError):
        await render_async(render_hand, samples.situan_hand(seed=1))


@pytest.mark.parametrize(
    "make",
    [
        lambda: CardFace("11", "S"),
        lambda: CardFace("7", "X"),
        lambda: CardFace("BJ", "H"),
        lambda: faces("S10 Z3"),
    ],
)
def test_a_card_that_does_not_exist_is_refused(make: Callable[[], object]) -> None:
    with pytest.raises(PictureError):
        make()


def test_a_list_where_a_tuple_belongs_is_a_clear_picture_error() -> None:
    picture = HandPicture("by_rank", "甲", [CardFace("3")])  # type: ignore[arg-type]
    with pytest.raises(PictureError, match="tuples"):
        render_hand(picture)


def test_the_wrong_picture_kind_is_a_picture_error() -> None:
    with pytest.raises(PictureError, match="TablePicture"):
        render_table(samples.situan_settlement())  # type: ignore[arg-type]


def test_a_round_too_long_for_one_picture_is_a_picture_error() -> None:
    plays = tuple(Play(f"座位{n % 4}", faces("3 3 3 3")) for n in range(60))
    with pytest.raises(PictureError, match="px"):
        render_table(TablePicture("by_rank", "四团", plays))


def count_pixels(image: Image.Image, colour: tuple[int, int, int]) -> int:
    counts = image.convert("RGB").getcolors(maxcolors=1 << 24) or []
    return sum(count for count, found in counts if found == colour)


@pytest.mark.parametrize("make", [samples.situan_table, samples.erqiwang_table])
def test_the_table_picture_bands_the_winning_play_in_gold(
    make: Callable[[], TablePicture],
) -> None:
    picture = make()
    with_winner = open_png(render_table(picture))
    plays = tuple(Play(play.seat, play.cards, won=False) for play in picture.plays)
    without = open_png(render_table(TablePicture(picture.layout, picture.title, plays)))
    assert with_winner.width <= 1080 and with_winner.height <= 2000
    assert count_pixels(with_winner, WINNER_GOLD) > 500
    assert count_pixels(without, WINNER_GOLD) == 0


def test_a_pass_takes_a_shorter_line_than_a_play() -> None:
    one_play = (Play("甲", faces("3")),)
    played = open_png(render_table(TablePicture("by_rank", "四团", one_play * 2)))
    passed = open_png(render_table(TablePicture("by_rank", "四团", (*one_play, Play("乙")))))
    assert passed.height < played.height


@pytest.mark.parametrize("make", [samples.situan_settlement, samples.erqiwang_settlement])
def test_the_settlement_highlights_the_winners_only(
    make: Callable[[], SettlementPicture],
) -> None:
    picture = make()
    image = open_png(render_settlement(picture))
    rows = tuple(
        SettlementRow(row.player, row.result, row.hand_total, row.match_total, row.bonus)
        for row in picture.rows
    )
    plain = open_png(render_settlement(SettlementPicture(picture.title, rows)))
    assert image.width <= 1080 and image.height <= 1200
    assert count_pixels(image, WINNER_TINT) > 10_000
    assert count_pixels(plain, WINNER_TINT) == 0


def test_amounts_are_signed_and_halves_kept() -> None:
    assert [signed(x) for x in (3, -1.5, 0, 0.5, -2.0)] == ["+3", "−1.5", "0", "+0.5", "−2"]


def test_sample_pictures_of_both_games_are_png_within_limits() -> None:
    for png in (
        render_hand(samples.situan_hand(seed=9)),
        render_hand(samples.erqiwang_hand(seed=9)),
        render_table(samples.situan_table()),
        render_table(samples.erqiwang_table()),
        render_settlement(samples.situan_settlement()),
        render_settlement(samples.erqiwang_settlement()),
    ):
        image = open_png(png)
        assert image.width <= 1080 and image.height <= 2000
        assert len(png) < 400_000


CARD_POINTS = {"5": 5, "10": 10, "K": 10}
"""Both games count 5, 10 and K."""


@pytest.mark.parametrize("make", [samples.situan_table, samples.erqiwang_table])
def test_a_fixture_table_badges_the_points_of_the_cards_played(
    make: Callable[[], TablePicture],
) -> None:
    picture = make()
    played = [card for play in picture.plays for card in play.cards]
    assert picture.points == sum(CARD_POINTS.get(card.rank, 0) for card in played)
    assert f"{picture.points} 分" in picture.result


@pytest.mark.parametrize("make", [samples.situan_settlement, samples.erqiwang_settlement])
def test_a_fixture_settlement_pays_out_what_it_takes_in(
    make: Callable[[], SettlementPicture],
) -> None:
    rows = make().rows
    assert sum(row.hand_total for row in rows) == 0
    assert sum(row.match_total for row in rows) == 0
