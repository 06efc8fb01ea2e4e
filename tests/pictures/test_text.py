"""Chinese renders with real glyphs, never tofu; other scripts never crash."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw, ImageFont

from bot.pictures import (
    HandPicture,
    SettlementPicture,
    SettlementRow,
    faces,
    render_hand,
    render_settlement,
)
from bot.pictures.bundled import BOLD_FONT, REGULAR_FONT
from bot.pictures.fonts import REPLACEMENT, FontFile, coverage, face_for, runs
from bot.pictures.text import draw_line, fit, width

from .conftest import open_png

MISSING = "\ue000"
"""A private-use code point: no font here has it, so it draws the font's .notdef box."""

CHINESE_TEXTS = ("王小明", "小王", "大王", "主7冲关", "皇上", "四团 · 第3局", "陳大文", "庄家")


def glyph_mask(font_path: str, character: str) -> bytes:
    font = ImageFont.truetype(font_path, 48)
    image = Image.new("L", (64, 64), 0)
    ImageDraw.Draw(image).text((8, 4), character, font=font, fill=255)
    return image.tobytes()


@pytest.mark.parametrize("font_file", [REGULAR_FONT, BOLD_FONT])
def test_the_bundled_fonts_lack_the_private_use_probe(font_file: Path) -> None:
    covered = coverage(FontFile(font_file))
    assert ord("王") in covered
    assert ord(MISSING) not in covered


@pytest.mark.parametrize("character", sorted(set("".join(CHINESE_TEXTS)) - set(" ·")))
def test_each_chinese_character_has_ink_unlike_the_missing_glyph_box(character: str) -> None:
    tofu = glyph_mask(str(REGULAR_FONT), MISSING)
    drawn = glyph_mask(str(REGULAR_FONT), character)
    assert any(drawn)
    assert drawn != tofu


@pytest.mark.parametrize("name", CHINESE_TEXTS)
def test_a_chinese_name_is_drawn_from_a_face_that_has_every_character(name: str) -> None:
    for style in ("regular", "bold"):
        pieces = runs(name, style)
        assert "".join(piece for _, piece in pieces) == name
        for face, piece in pieces:
            assert all(ord(character) in coverage(face) for character in piece)


def test_the_drawn_name_differs_from_the_same_count_of_missing_glyph_boxes() -> None:
    def drawn(words: str, missing: bool) -> bytes:
        image = Image.new("RGB", (400, 60), (0, 0, 0))
        draw = ImageDraw.Draw(image)
        if missing:
            font = ImageFont.truetype(str(REGULAR_FONT), 32)
            draw.text((0, 40), words, font=font, fill=(255, 255, 255), anchor="ls")
        else:
            draw_line(draw, 0, 0, words, 32, (255, 255, 255))
        return image.tobytes()

    assert drawn("王小明", missing=False) != drawn(MISSING * 3, missing=True)


def test_the_bundled_regular_face_covers_gb2312_level_one_and_the_card_signs() -> None:
    covered = coverage(FontFile(REGULAR_FONT))
    level_one = set()
    for high in range(0xB0, 0xD8):
        for low in range(0xA1, 0xFF):
            try:
                level_one.add(bytes((high, low)).decode("gb2312"))
            except UnicodeDecodeError:
                continue
    assert len(level_one) == 3755
    assert all(ord(character) in covered for character in level_one)
    assert all(ord(character) in covered for character in "♠♥♣♦×·−…★◌ АЯЖ")
    assert all(ord(character) in covered for character in map(chr, range(0x20, 0x7F)))


def test_cyrillic_is_drawn_by_the_bundled_face_not_replaced() -> None:
    assert REPLACEMENT not in "".join(piece for _, piece in runs("Алексей", "bold"))


def test_an_emoji_sequence_no_font_has_becomes_one_replacement_sign() -> None:
    if face_for("\U0001f409", "regular") or face_for("\U0001f525", "regular"):
        pytest.skip("this machine has an emoji font")
    pieces = runs("Sam \U0001f409\ufe0f\u200d\U0001f525!", "regular")
    assert "".join(piece for _, piece in pieces) == f"Sam {REPLACEMENT}!"


def test_a_private_use_character_is_replaced_rather_than_drawn_as_a_box() -> None:
    drawn = "".join(piece for _, piece in runs(f"A{MISSING}B", "bold"))
    assert drawn == f"A{REPLACEMENT}B"


def test_a_long_name_is_cut_with_an_ellipsis_to_its_column() -> None:
    name = "非常非常非常长的玩家名字非常非常长"
    cut = fit(name, 32, 200, "bold")
    assert cut.endswith("…")
    assert width(cut, 32, "bold") <= 200
    assert fit("张三", 32, 200) == "张三"


names = st.text(min_size=0, max_size=24)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(names)
def test_any_player_name_renders_a_hand_without_crashing(name: str) -> None:
    image = open_png(render_hand(HandPicture("as_held", name, faces("BJ H7 SA"), (name,))))
    assert image.width <= 1080


@pytest.mark.parametrize(
    "name", ["Алексей", "🐉🔥", "👨‍👩‍👧", "🇨🇳", "Ω≈ç√", "\u202eevil", "e\u0301", "𠀀𪚥", ""]
)
def test_emoji_cyrillic_and_rare_names_render_a_settlement(name: str) -> None:
    row = SettlementRow(name, name, 1, -1, bonus=name, winner=True)
    image = open_png(render_settlement(SettlementPicture(name, (row,))))
    assert image.width <= 1080
