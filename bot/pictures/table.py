"""The table picture after a trick (二七王) or a round (四团): who played what, who won.

One line per play in the order played, seat name on the left, the cards (or a pass) to the
right; the winning play is banded in gold with the points it took. Header chips above carry
the trump, bid and points so far; the result line below says it in words.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.pictures import canvas, text
from bot.pictures.badges import pill
from bot.pictures.cards import TABLE_CARD, paste_card
from bot.pictures.faces import Play, TablePicture
from bot.pictures.fan import fan_offsets
from bot.pictures.sprites import paste
from bot.pictures.theme import (
    FELT,
    FELT_DARK,
    INK,
    MARGIN,
    MAX_WIDTH,
    ON_FELT,
    ON_FELT_MUTED,
    PAPER,
    SMALL_SIZE,
    TEXT_SIZE,
    WINNER_GOLD,
)

NAME_COLUMN = 250
POINTS_COLUMN = 110
PLAY_PAD = 12
CHIP_GAP = 12
SECTION_GAP = 20
NOTE_SIZE = 26
BAND_RADIUS = 18
WINNER_BAND = (34, 118, 82)


def draw_table(picture: TablePicture) -> Image.Image:
    chip_room = MAX_WIDTH - 2 * MARGIN
    chips = [
        pill(
            text.fit(header, SMALL_SIZE, chip_room - 2 * SMALL_SIZE),
            SMALL_SIZE,
            PAPER,
            INK,
            "regular",
            red_suits=True,
        )
        for header in picture.headers
    ]
    chip_rows = _wrap(chips, chip_room)
    chip_height = chips[0].height if chips else 0
    top = MARGIN + canvas.title_height() + SECTION_GAP
    headers_top = top
    top += len(chip_rows) * (chip_height + CHIP_GAP) + (SECTION_GAP if chip_rows else 0)
    plays_top = top
    top += sum(_play_height(play) + PLAY_PAD for play in picture.plays)
    result_top = top + SECTION_GAP // 2
    height = result_top + (text.line_height(TEXT_SIZE) if picture.result else 0) + MARGIN

    image, draw = canvas.ground(MAX_WIDTH, height, FELT)
    canvas.draw_title(draw, MARGIN, picture.title, (), MAX_WIDTH)
    for row_number, row in enumerate(chip_rows):
        x = MARGIN
        for chip in row:
            paste(image, chip, x, headers_top + row_number * (chip_height + CHIP_GAP))
            x += chip.width + CHIP_GAP
    play_top = plays_top
    for play in picture.plays:
        _draw_play(image, draw, picture, play, play_top, _play_height(play))
        play_top += _play_height(play) + PLAY_PAD
    if picture.result:
        fitted = text.fit(picture.result, TEXT_SIZE, MAX_WIDTH - 2 * MARGIN, "bold")
        text.draw_line(draw, MARGIN, result_top, fitted, TEXT_SIZE, ON_FELT, "bold")
    return image


def _play_height(play: Play) -> int:
    # A pass takes a short line: in a long 四团 round most turns are passes.
    if play.cards:
        return TABLE_CARD.height + 2 * PLAY_PAD
    name_block = text.line_height(TEXT_SIZE) + (text.line_height(NOTE_SIZE) if play.note else 0)
    return max(name_block, round(TEXT_SIZE * 1.45)) + 2 * PLAY_PAD


def _draw_play(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    picture: TablePicture,
    play: Play,
    top: int,
    height: int,
) -> None:
    if play.won:
        draw.rounded_rectangle(
            (MARGIN // 2, top, MAX_WIDTH - MARGIN // 2, top + height),
            radius=BAND_RADIUS,
            fill=WINNER_BAND,
            outline=WINNER_GOLD,
            width=3,
        )
    name_colour = WINNER_GOLD if play.won else ON_FELT
    name = text.fit(play.seat, TEXT_SIZE, NAME_COLUMN - 16, "bold")
    name_top = top + height // 2 - text.line_height(TEXT_SIZE) // 2
    if play.note:
        name_top -= text.line_height(NOTE_SIZE) // 2
    text.draw_line(draw, MARGIN, name_top, name, TEXT_SIZE, name_colour, "bold")
    if play.note:
        note = text.fit(play.note, NOTE_SIZE, NAME_COLUMN - 16)
        text.draw_line(
            draw, MARGIN, name_top + text.line_height(TEXT_SIZE), note, NOTE_SIZE, ON_FELT_MUTED
        )
    cards_left = MARGIN + NAME_COLUMN
    available = MAX_WIDTH - MARGIN - POINTS_COLUMN - cards_left
    if play.cards:
        offsets = fan_offsets(len(play.cards), TABLE_CARD, available)
        for offset, face in zip(offsets, play.cards, strict=True):
            paste_card(
                image,
                face,
                TABLE_CARD,
                cards_left + offset,
                top + PLAY_PAD,
                rank_only=picture.layout == "by_rank",
            )
    else:
        passed = pill(picture.pass_label, TEXT_SIZE, FELT_DARK, ON_FELT_MUTED, "regular")
        paste(image, passed, cards_left, top + (height - passed.height) // 2)
    if play.won and picture.points is not None:
        badge = pill(f"+{picture.points}", TEXT_SIZE, WINNER_GOLD, INK)
        paste(image, badge, MAX_WIDTH - MARGIN - badge.width, top + (height - badge.height) // 2)


def _wrap(chips: list[Image.Image], room: int) -> list[list[Image.Image]]:
    rows: list[list[Image.Image]] = []
    used = room + 1
    for chip in chips:
        if used + CHIP_GAP + chip.width > room:
            rows.append([])
            used = -CHIP_GAP
        rows[-1].append(chip)
        used += CHIP_GAP + chip.width
    return rows
