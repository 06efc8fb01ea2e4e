"""Where the fonts shipped with the renderer live (a subset of Noto Sans CJK SC, SIL OFL 1.1)."""

from __future__ import annotations

from pathlib import Path

FONT_DIR = Path(__file__).with_name("fonts")
REGULAR_FONT = FONT_DIR / "NotoSansCJKsc-Regular-subset.otf"
BOLD_FONT = FONT_DIR / "NotoSansCJKsc-Bold-subset.otf"
LICENCE = FONT_DIR / "OFL.txt"
