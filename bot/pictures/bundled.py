"""Where the fonts shipped with the renderer live (all SIL OFL 1.1: `LICENCE`, `EMOJI_LICENCE`).

A subset of Noto Sans CJK SC draws Chinese, Latin, Greek, Cyrillic and the suits; Noto Emoji
(monochrome) draws the emoji players put in their names.
"""

from __future__ import annotations

from pathlib import Path

FONT_DIR = Path(__file__).with_name("fonts")
REGULAR_FONT = FONT_DIR / "NotoSansCJKsc-Regular-subset.otf"
BOLD_FONT = FONT_DIR / "NotoSansCJKsc-Bold-subset.otf"
EMOJI_FONT = FONT_DIR / "NotoEmoji-Regular.ttf"
LICENCE = FONT_DIR / "OFL.txt"
EMOJI_LICENCE = FONT_DIR / "NotoEmoji-OFL.txt"
