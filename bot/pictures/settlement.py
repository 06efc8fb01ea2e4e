"""The settlement picture (结算): one row per player, winners highlighted.

Each row: the player's name and hand result, this hand's total and the running match total,
with the bonus line (墩 / 冲关) under the name when there is one. It is drawn on paper rather
than felt: it is a score sheet, read like a table.
"""

from __future__ import annotations

from fractions import Fraction

from PIL import Image, ImageDraw

from bot.pictures import text
from bot.pictures.canvas import ground
from bot.pictures.faces import SettlementPicture, SettlementRow
from bot.pictures.theme import (
    FELT,
    GAIN,
    INK,
    INK_MUTED,
    LOSS,
    MARGIN,
    MAX_WIDTH,
    ON_FELT,
    PAPER,
    RULE_LINE,
    SMALL_SIZE,
    TITLE_SIZE,
    WINNER_GOLD,
    WINNER_TINT,
)
from bot.views.amounts import signed_amount

NAME_SIZE = 36
BONUS_SIZE = 27
HEADING_SIZE = 26
RESULT_SIZE = 32
SMALLEST_RESULT_SIZE = 24
ROW_PAD = 16
TITLE_BAR = 96
NAME_COLUMN = MARGIN + 14
RESULT_COLUMN = 340
HAND_RIGHT = MAX_WIDTH - MARGIN - 200
MATCH_RIGHT = MAX_WIDTH - MARGIN
WINNER_MARK = "★ "
MINUS = "−"


def signed(amount: Fraction | float) -> str:
    """``+3``, ``−1.5``, ``0``: as the settlement's text writes it (`bot.views.amounts`), with a
    true minus sign."""
    return signed_amount(amount).replace("-", MINUS)


def _row_height(row: SettlementRow) -> int:
    height = text.line_height(NAME_SIZE) + 2 * ROW_PAD
    if row.bonus:
        height += text.line_height(BONUS_SIZE)
    return height


def draw_settlement(picture: SettlementPicture) -> Image.Image:
    headings_top = TITLE_BAR + ROW_PAD
    rows_top = headings_top + text.line_height(HEADING_SIZE) + ROW_PAD // 2
    rows_height = sum(_row_height(row) for row in picture.rows)
    footer_height = text.line_height(SMALL_SIZE) + ROW_PAD if picture.footer else 0
    height = rows_top + rows_height + footer_height + MARGIN
    image, draw = ground(MAX_WIDTH, height, PAPER)

    draw.rectangle((0, 0, MAX_WIDTH, TITLE_BAR), fill=FELT)
    title = text.fit(picture.title, TITLE_SIZE, MAX_WIDTH - 2 * MARGIN, "bold")
    text.draw_centred(draw, MAX_WIDTH / 2, TITLE_BAR / 2, title, TITLE_SIZE, ON_FELT, "bold")
    _draw_headings(draw, picture.headings, headings_top)
    top = rows_top
    for row in picture.rows:
        _draw_row(draw, row, top)
        top += _row_height(row)
    if picture.footer:
        footer = text.fit(picture.footer, SMALL_SIZE, MAX_WIDTH - 2 * MARGIN)
        text.draw_line(draw, MARGIN, top + ROW_PAD, footer, SMALL_SIZE, INK_MUTED, red_suits=True)
    return image


def _draw_headings(
    draw: ImageDraw.ImageDraw, headings: tuple[str, str, str, str], top: int
) -> None:
    player, result, hand_total, match_total = headings
    text.draw_line(draw, NAME_COLUMN, top, player, HEADING_SIZE, INK_MUTED)
    text.draw_line(draw, RESULT_COLUMN, top, result, HEADING_SIZE, INK_MUTED)
    text.draw_right(draw, HAND_RIGHT, top, hand_total, HEADING_SIZE, INK_MUTED)
    text.draw_right(draw, MATCH_RIGHT, top, match_total, HEADING_SIZE, INK_MUTED)


def _fitted_result(result: str) -> tuple[int, str]:
    """A long result ("庄家 · 下庄 (闲家 95 / 75)") is set smaller before it is cut."""
    room = HAND_RIGHT - 120 - RESULT_COLUMN
    for size in range(RESULT_SIZE, SMALLEST_RESULT_SIZE - 1, -2):
        if text.width(result, size) <= room:
            return size, result
    return SMALLEST_RESULT_SIZE, text.fit(result, SMALLEST_RESULT_SIZE, room)


def _draw_row(draw: ImageDraw.ImageDraw, row: SettlementRow, top: int) -> None:
    bottom = top + _row_height(row)
    if row.winner:
        draw.rectangle((0, top, MAX_WIDTH, bottom), fill=WINNER_TINT)
        draw.rectangle((0, top, 10, bottom), fill=WINNER_GOLD)
    draw.line((MARGIN, bottom - 1, MAX_WIDTH - MARGIN, bottom - 1), fill=RULE_LINE, width=2)
    line_top = top + ROW_PAD
    name = (WINNER_MARK if row.winner else "") + row.player
    name = text.fit(name, NAME_SIZE, RESULT_COLUMN - NAME_COLUMN - 20, "bold")
    text.draw_line(draw, NAME_COLUMN, line_top, name, NAME_SIZE, INK, "bold")
    result_size, result = _fitted_result(row.result)
    # The result is set a little smaller than the name but on the same baseline.
    baseline = line_top + NAME_SIZE * text.BASELINE
    text.draw_on_baseline(draw, RESULT_COLUMN, baseline, result, result_size, INK, red_suits=True)
    for right, amount in ((HAND_RIGHT, row.hand_total), (MATCH_RIGHT, row.match_total)):
        colour = GAIN if amount > 0 else LOSS if amount < 0 else INK_MUTED
        text.draw_right(draw, right, line_top, signed(amount), NAME_SIZE, colour, "bold")
    if row.bonus:
        bonus = text.fit(row.bonus, BONUS_SIZE, MATCH_RIGHT - NAME_COLUMN)
        text.draw_line(
            draw,
            NAME_COLUMN,
            line_top + text.line_height(NAME_SIZE),
            bonus,
            BONUS_SIZE,
            INK_MUTED,
            red_suits=True,
        )
