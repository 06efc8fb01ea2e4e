"""Which font draws which character.

The bundled Noto Sans CJK SC subset draws Chinese, Latin, Greek, Cyrillic and the suits, the
bundled Noto Emoji the emoji of names (with their ZWJ sequences, flags and skin tones where
Pillow's text layout has them: with libraqm, which Pillow's wheels bring). A character they
lack (a rare hanzi, another script) is looked up in fonts commonly found on the system, then
in any listed in ``CARDBOT_PICTURE_FONTS`` (paths separated by ``os.pathsep``); a sign no
font has becomes ``REPLACEMENT``, once per sign, never a tofu box.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

from fontTools.ttLib import TTFont  # type: ignore[import-untyped]
from PIL import ImageFont

from bot.pictures.bundled import BOLD_FONT, EMOJI_FONT, REGULAR_FONT
from bot.pictures.errors import PictureError

Style = Literal["regular", "bold"]

REPLACEMENT = "◌"
"""Drawn for a character no font has: a dotted circle reads as "some sign", not as an error."""

_extra_fonts: tuple[Path, ...] = ()
"""More font files, tried after every other (``CARDBOT_PICTURE_FONTS``: `use_extra_fonts`)."""


def use_extra_fonts(paths: tuple[Path, ...]) -> None:
    """Try these font files after the bundled and the system's ones (the setting
    ``CARDBOT_PICTURE_FONTS``, read by `bot.ops.config`)."""
    global _extra_fonts
    if paths != _extra_fonts:
        _extra_fonts = tuple(paths)
        face_chain.cache_clear()


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


EMOJI_FACE = FontFile(EMOJI_FONT)
"""Noto Emoji, monochrome: drawn in the text's colour like the letters around it."""


def _extra_faces() -> tuple[FontFile, ...]:
    return tuple(FontFile(path) for path in _extra_fonts)


@lru_cache(maxsize=2)
def face_chain(style: Style) -> tuple[FontFile, ...]:
    """The faces tried in order for ``style``; only those that exist on this machine."""
    if not REGULAR_FONT.exists():
        raise PictureError(f"the bundled font is missing: {REGULAR_FONT}")
    bundled = (FontFile(BOLD_FONT), FontFile(REGULAR_FONT)) if style == "bold" else ()
    system = (*_SYSTEM_BOLD_FACES, *_SYSTEM_FACES) if style == "bold" else _SYSTEM_FACES
    # The emoji face comes before the system ones: a system font with a few black-and-white
    # emoji (DejaVu has some) would otherwise draw those and not the rest, in another style.
    candidates = (*bundled, FontFile(REGULAR_FONT), EMOJI_FACE, *system, *_extra_faces())
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


ZWJ = "\u200d"
EMOJI_VARIATION = "\ufe0f"
KEYCAP = "\u20e3"


def _is_skin_tone(character: str) -> bool:
    return "\U0001f3fb" <= character <= "\U0001f3ff"


def _is_tag(character: str) -> bool:
    # Tag characters spell subdivision flags (🏴 + gbsct + cancel tag: Scotland).
    return "\U000e0020" <= character <= "\U000e007f"


def _is_regional_indicator(character: str) -> bool:
    return "\U0001f1e6" <= character <= "\U0001f1ff"


def _extends(character: str) -> bool:
    """Whether ``character`` belongs to the cluster before it rather than starting one."""
    return (
        unicodedata.category(character).startswith("M")
        or "\ufe00" <= character <= "\ufe0f"
        or _is_skin_tone(character)
        or _is_tag(character)
    )


def clusters(text: str) -> tuple[str, ...]:
    """``text`` (NFC) cut where a reader sees one sign end and the next begin: a letter with
    its combining marks, an emoji with its modifiers and ZWJ partners, a flag's two letters.

    A simple cut of Unicode's grapheme clusters (UAX #29), enough for names: a name is never
    split inside one, neither when it is shortened (`bot.pictures.text.fit`) nor between fonts.
    """
    found: list[str] = []
    for character in unicodedata.normalize("NFC", text):
        if found:
            last = found[-1]
            joined = last.endswith(ZWJ)
            pairs_flag = (
                _is_regional_indicator(character)
                and len(last) == 1
                and _is_regional_indicator(last)
            )
            if joined or pairs_flag or character == ZWJ or _extends(character):
                found[-1] = last + character
                continue
        found.append(character)
    return tuple(found)


def _is_invisible(character: str) -> bool:
    # Zero-width joiners, variation selectors, bidi marks, controls: parts of emoji sequences
    # and of names pasted from elsewhere, with nothing to draw on their own.
    return unicodedata.category(character) in {"Cc", "Cf", "Zl", "Zp"} or (
        "\ufe00" <= character <= "\ufe0f"
    )


def _is_emoji_sequence(cluster: str) -> bool:
    """A cluster that only an emoji font draws as meant: a ZWJ sequence, a flag, a keycap, a
    skin tone, or a sign asked for in emoji style (U+FE0F)."""
    return any(
        character in (ZWJ, EMOJI_VARIATION, KEYCAP)
        or _is_skin_tone(character)
        or _is_tag(character)
        or _is_regional_indicator(character)
        for character in cluster
    )


def _covers(face: FontFile, text: str) -> bool:
    covered = coverage(face)
    return all(ord(character) in covered for character in text)


@lru_cache(maxsize=8192)
def face_for(character: str, style: Style) -> FontFile | None:
    """The first face of the chain that has ``character``, or None."""
    for face in face_chain(style):
        if _covers(face, character):
            return face
    return None


@lru_cache(maxsize=4096)
def _drawn_cluster(cluster: str, style: Style) -> tuple[FontFile, str] | None:
    """The face that draws ``cluster`` and what it draws: the cluster whole; without the marks
    or joiners no face has; or `REPLACEMENT` (None: nothing visible to draw)."""
    if _is_emoji_sequence(cluster) and _covers(EMOJI_FACE, cluster):
        return EMOJI_FACE, cluster
    visible = "".join(character for character in cluster if not _is_invisible(character))
    if not visible:
        return None
    for face in face_chain(style):
        if _covers(face, visible):
            return face, visible
    base = visible[0]
    base_face = face_for(base, style)
    if base_face is not None:
        # A mark no face has is dropped: the letter alone still reads.
        return base_face, "".join(c for c in visible if ord(c) in coverage(base_face))
    if unicodedata.category(base).startswith("M"):
        return None  # a lone combining mark: dropping it loses nothing readable
    replacement_face = face_for(REPLACEMENT, style)
    if replacement_face is None:
        raise PictureError("no font has the replacement character")
    return replacement_face, REPLACEMENT


def runs(text: str, style: Style) -> tuple[tuple[FontFile, str], ...]:
    """``text`` cut into pieces that one face each draws, unknown signs replaced."""
    pieces: list[tuple[FontFile, str]] = []
    for cluster in clusters(text):
        drawn = _drawn_cluster(cluster, style)
        if drawn is None:
            continue
        face, piece = drawn
        if pieces and pieces[-1][0] == face:
            pieces[-1] = (face, pieces[-1][1] + piece)
        else:
            pieces.append((face, piece))
    return tuple(pieces)


def drawn_text(text: str, style: Style = "regular") -> str:
    """What the picture will show for ``text``: the characters drawn, after dropping the
    invisible ones and replacing what no font has with `REPLACEMENT`."""
    return "".join(piece for _, piece in runs(text, style))
