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
from bot.pictures.bundled import BOLD_FONT, EMOJI_FONT, EMOJI_LICENCE, REGULAR_FONT
from bot.pictures.fonts import (
    EMOJI_FACE,
    REPLACEMENT,
    FontFile,
    clusters,
    coverage,
    drawn_text,
    face_chain,
    runs,
)
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


@pytest.mark.parametrize("name", ["김민수", "이서연", "ㅋㅋ"])
def test_a_korean_name_is_drawn_by_the_bundled_regular_face(name: str) -> None:
    for style in ("regular", "bold"):
        assert runs(name, style) == ((FontFile(REGULAR_FONT), name),)


def test_cyrillic_is_drawn_by_the_bundled_face_not_replaced() -> None:
    assert REPLACEMENT not in "".join(piece for _, piece in runs("Алексей", "bold"))


NAMES_WITH_EMOJI = (
    "Sam \U0001f409",  # 🐉
    "\U0001f44d\U0001f3fd Li",  # 👍🏽: a skin tone
    "\U0001f1e8\U0001f1f3 王",  # 🇨🇳: a flag, two regional indicators
    "\U0001f468\u200d\U0001f469\u200d\U0001f467",  # 👨‍👩‍👧: a ZWJ family
    "\U0001f3f3\ufe0f\u200d\U0001f308",  # 🏳️‍🌈: a ZWJ sequence with a variation selector
    "1\ufe0f\u20e3 \u2764\ufe0f",  # 1️⃣ ❤️: a keycap, emoji style asked for
    "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",  # Scotland
    "\U0001f970\U0001fae0",  # 🥰🫠: Unicode 11 and 14
)


@pytest.mark.parametrize("name", NAMES_WITH_EMOJI)
def test_an_emoji_in_a_name_is_drawn_whole_by_the_bundled_emoji_face(name: str) -> None:
    for style in ("regular", "bold"):
        assert drawn_text(name, style) == name
        for face, piece in runs(name, style):
            assert all(ord(character) in coverage(face) for character in piece)
            if any(ord(character) >= 0x1F000 or character in "\u2764\u20e3" for character in piece):
                assert face == EMOJI_FACE  # not a black-and-white few from a system font


def test_the_emoji_face_is_bundled_with_its_licence() -> None:
    assert EMOJI_FONT.stat().st_size < 1_500_000  # the submission stays small
    assert "Open Font License" in EMOJI_LICENCE.read_text()
    assert EMOJI_FACE in face_chain("regular") and EMOJI_FACE in face_chain("bold")


def test_an_emoji_sequence_is_one_sign_and_a_name_is_never_cut_inside_one() -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert clusters(f"A{family}\U0001f1e8\U0001f1f3e\u0301") == (
        "A",
        family,
        "\U0001f1e8\U0001f1f3",
        "\u00e9",  # NFC
    )
    cut = fit(family * 12, 32, 150, "bold")
    assert cut.endswith("…")
    assert set(clusters(cut[:-1])) == {family}


def test_signs_no_font_has_become_one_replacement_each_never_a_missing_glyph() -> None:
    assert drawn_text(f"Sam {MISSING}\u0301\u200d{MISSING}!") == f"Sam {REPLACEMENT}!"


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
    "name",
    [*NAMES_WITH_EMOJI, "Алексей", "Ω≈ç√", "e\u0301lodie", "Zoë", "\u202eevil"],
)
def test_names_of_emoji_latin_and_cyrillic_render_a_hand_and_settlement_without_replacement(
    name: str,
) -> None:
    assert REPLACEMENT not in drawn_text(name, "bold") + drawn_text(name, "regular")
    row = SettlementRow(name, name, 1, -1, bonus=name, winner=True)
    image = open_png(render_settlement(SettlementPicture(name, (row,))))
    assert image.width <= 1080
    hand = open_png(render_hand(HandPicture("as_held", name, faces("BJ H7"), (name,))))
    assert hand.width <= 1080


@pytest.mark.parametrize("name", ["𠀀𪚥", "\U000e0001", "\u0301", "", " "])
def test_rare_and_empty_names_render_a_settlement(name: str) -> None:
    row = SettlementRow(name, name, 1, -1, bonus=name, winner=True)
    image = open_png(render_settlement(SettlementPicture(name, (row,))))
    assert image.width <= 1080
