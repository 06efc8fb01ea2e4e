"""Rebuild the bundled CJK font subsets in ``bot/pictures/fonts/``.

The renderer ships a subset of Noto Sans CJK SC (SIL OFL 1.1) rather than depend on a system
font: a fresh machine has no CJK font, and a 20 MB font is too big for the repository. The
regular face covers all of GB 2312 (6763 hanzi) plus the common Big5 hanzi, so zh-Hans and
zh-Hant names render, and the 2350 common Hangul syllables for Korean names; the bold face,
used for titles and card ranks, covers GB 2312 level 1 (3755 hanzi) and falls back to the
regular face for the rest.

Run once with the original font (Debian's ``fonts-noto-cjk`` has it; ``apt-get download
fonts-noto-cjk && dpkg-deb -x fonts-noto-cjk_*.deb x`` fetches it without installing)::

    python -m bot.pictures.subset_font \\
        x/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc \\
        x/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc

This needs ``fonttools`` (already a dependency of the renderer).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from bot.pictures.bundled import BOLD_FONT, FONT_DIR, REGULAR_FONT

# Index of "Noto Sans CJK SC" in the Noto Sans CJK collections (JP, KR, SC, TC, HK, ...).
SC_FONT_NUMBER = 2

# Everything but the hanzi: Latin (names), Greek and Cyrillic (names), punctuation, arrows,
# circled numbers, shapes and the card suits (U+2660-2667), CJK punctuation, full-width forms.
NON_HAN_UNICODES = (
    "U+0020-007E,U+00A0-017F,U+0370-03FF,U+0400-04FF,U+2000-206F,U+20AC,U+2190-21FF,"
    "U+2212,U+2460-2473,U+25A0-25FF,U+2600-26FF,U+3000-303F,U+FF00-FFEF"
)


def gb2312_characters(level_one_only: bool) -> set[str]:
    """Every character of GB 2312, or only its symbols and level-1 hanzi (rows 1-55)."""
    last_row = 0xD7 if level_one_only else 0xF7
    found: set[str] = set()
    for high in range(0xA1, last_row + 1):
        for low in range(0xA1, 0xFF):
            try:
                found.add(bytes((high, low)).decode("gb2312"))
            except UnicodeDecodeError:
                continue
    return found


def big5_common_hanzi() -> set[str]:
    """The 5401 common hanzi of Big5 (0xA440-0xC67E), for Traditional Chinese names."""
    found: set[str] = set()
    for high in range(0xA4, 0xC7):
        for low in (*range(0x40, 0x7F), *range(0xA1, 0xFF)):
            try:
                character = bytes((high, low)).decode("big5")
            except UnicodeDecodeError:
                continue
            if "\u4e00" <= character <= "\u9fff":
                found.add(character)
    return found


def hangul_common_syllables() -> set[str]:
    """The 2350 Hangul syllables of KS X 1001 (EUC-KR rows 0xB0-0xC8) and the jamo, for
    Korean names in the regular face: the SC face has all 11172 syllables, the common ones
    cost ~0.26 MB. The bold face falls back to the regular one for them."""
    found = {chr(code) for code in range(0x3131, 0x318F)}  # the compatibility jamo (ㄱ, ㅋ)
    for high in range(0xB0, 0xC9):
        for low in range(0xA1, 0xFF):
            try:
                character = bytes((high, low)).decode("euc_kr")
            except UnicodeDecodeError:
                continue
            if "\uac00" <= character <= "\ud7a3":
                found.add(character)
    return found


def subset(source: Path, characters: set[str], output: Path) -> None:
    text_file = output.with_suffix(".chars.txt")
    text_file.write_text("".join(sorted(characters)), encoding="utf-8")
    try:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "fontTools.subset",
                str(source),
                f"--font-number={SC_FONT_NUMBER}",
                f"--text-file={text_file}",
                f"--unicodes={NON_HAN_UNICODES}",
                f"--output-file={output}",
                "--layout-features=kern,liga",
                "--no-hinting",
                "--name-IDs=*",
                "--name-languages=*",
            ],
            check=True,
        )
    finally:
        text_file.unlink()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("regular", type=Path, help="NotoSansCJK-Regular.ttc")
    parser.add_argument("bold", type=Path, help="NotoSansCJK-Bold.ttc")
    arguments = parser.parse_args()
    FONT_DIR.mkdir(exist_ok=True)
    subset(
        arguments.regular,
        gb2312_characters(level_one_only=False) | big5_common_hanzi() | hangul_common_syllables(),
        REGULAR_FONT,
    )
    subset(arguments.bold, gb2312_characters(level_one_only=True), BOLD_FONT)


if __name__ == "__main__":
    main()
