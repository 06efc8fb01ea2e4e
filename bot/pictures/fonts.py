"""Which font draws which character.

The bundled Noto Sans CJK SC subset draws Chinese, Latin, Greek, Cyrillic and the suits. A
character it lacks (a rare hanzi, another script) is looked up in fonts commonly found on the
system, then in any listed in ``CARDBOT_PICTURE_FONTS`` (paths separated by ``os.pathsep``);
a character no font has becomes ``REPLACEMENT``, never a tofu box.
"""

from __future__ import annotations

import os
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

from fontTools.ttLib import TTFont  # type: ignore[import-untyped]
from PIL import ImageFont

from bot.pictures.bundled import BOLD_FONT, REGULAR_FONT
from bot.pictures.errors import PictureError

Style = Literal["regular", "bold"]

REPLACEMENT = "◌"
"""Drawn for a character no font has: a dotted circle reads as "some sign", not as an error."""

EXTRA_FONTS_VARIABLE = "CARDBOT_PICTURE_FONTS"


@dataclass(frozen=True, slots=True)
class FontFile:
    """One face: a font file and, for a collection (.ttc), the face's index in it."""

    path: Path
    index: int = 0


# Faces often present on Debian, macOS and Windows, tried in this order after the bundled ones.
_SYSTEM_FACES = (
    FontFile(Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"), 2),
    FontFile(Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc")),
    FontFile(Path("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc")),
    FontFile(Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")),
    FontFile(Path("/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf")),
    FontFile(Path("/usr/share/fonts/truetype/noto/NotoSansSymbols2-Regular.ttf")),
    FontFile(Path("/usr/share/fonts/truetype/freefont/FreeSans.ttf")),
    FontFile(Path("/System/Library/Fonts/PingFang.ttc")),
    FontFile(Path("/System/Library/Fonts/Supplemental/Arial Unicode.ttf")),
    FontFile(Path("C:/Windows/Fonts/msyh.ttc")),
    FontFile(Path("C:/Windows/Fonts/seguisym.ttf")),
)
_SYSTEM_BOLD_FACES = (
    FontFile(Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"), 2),
    FontFile(Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")),
)


def _extra_faces() -> tuple[FontFile, ...]:
    listed = os.environ.get(EXTRA_FONTS_VARIABLE, "")
    return tuple(FontFile(Path(part)) for part in listed.split(os.pathsep) if part)


@lru_cache(maxsize=2)
def face_chain(style: Style) -> tuple[FontFile, ...]:
    """The faces tried in order for ``style``; only those that exist on this machine."""
    if not REGULAR_FONT.exists():
        raise PictureError(f"the bundled font is missing: {REGULAR_FONT}")
    bundled = (FontFile(BOLD_FONT), FontFile(REGULAR_FONT)) if style == "bold" else ()
    system = (*_SYSTEM_BOLD_FACES, *_SYSTEM_FACES) if style == "bold" else _SYSTEM_FACES
    candidates = (*bundled, FontFile(REGULAR_FONT), *system, *_extra_faces())
    unique = tuple(dict.fromkeys(candidates))
    return tuple(face for face in unique if face.path.exists())


@lru_cache(maxsize=32)
def coverage(face: FontFile) -> frozenset[int]:
    """The code points ``face`` has glyphs for; empty for a file that cannot be read."""
    try:
        font = TTFont(str(face.path), fontNumber=face.index, lazy=True)
        try:
            return frozenset(font.getBestCmap() or ())
        finally:
            font.close()
    except Exception:
        # A broken or unexpected system font must not stop the picture: it is just skipped.
        return frozenset()


@lru_cache(maxsize=128)
def pillow_font(face: FontFile, size: int) -> ImageFont.FreeTypeFont:
    try:
        return ImageFont.truetype(str(face.path), size=size, index=face.index)
    except OSError as error:
        raise PictureError(f"cannot load font {face.path}: {error}") from error


def _is_invisible(character: str) -> bool:
    # Zero-width joiners, variation selectors, bidi marks, controls: parts of emoji sequences
    # and of names pasted from elsewhere, with nothing to draw.
    return unicodedata.category(character) in {"Cc", "Cf", "Zl", "Zp"} or (
        "\ufe00" <= character <= "\ufe0f"
    )


@lru_cache(maxsize=8192)
def face_for(character: str, style: Style) -> FontFile | None:
    """The first face of the chain that has ``character``, or None."""
    code = ord(character)
    for face in face_chain(style):
        if code in coverage(face):
            return face
    return None


def runs(text: str, style: Style) -> tuple[tuple[FontFile, str], ...]:
    """``text`` cut into pieces that one face each draws, unknown characters replaced."""
    pieces: list[tuple[FontFile, str]] = []
    for character in unicodedata.normalize("NFC", text):
        if _is_invisible(character):
            continue
        face = face_for(character, style)
        if face is None:
            if unicodedata.category(character).startswith("M"):
                continue  # a lone combining mark: dropping it loses nothing readable
            if pieces and pieces[-1][1].endswith(REPLACEMENT):
                continue  # one sign for a whole emoji sequence or flag
            character = REPLACEMENT
            face = face_for(REPLACEMENT, style)
            if face is None:
                raise PictureError("no font has the replacement character")
        if pieces and pieces[-1][0] == face:
            pieces[-1] = (face, pieces[-1][1] + character)
        else:
            pieces.append((face, character))
    return tuple(pieces)
