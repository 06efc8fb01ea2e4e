"""Telling a drawn glyph from the box a browser draws for a character no font gave it
(the .notdef glyph, "tofu"), by its pixels.

Each character's box on the page comes from a DOM `Range` (its advance and line height);
its ink is what differs from the box's commonest colour. The tofu of a style (font size
and weight) is the ink of a character that no font has (`ABSENT`) drawn in that style: a
character whose ink and width are the tofu's was not drawn.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

ABSENT = "\U0010fffd"
"""A private-use character of plane 16: no font draws it, every browser shows its tofu."""
GLYPHS_JS = """(root) => {
  const out = [];
  const range = document.createRange();
  const walker = document.createTreeWalker(document.querySelector(root), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest("[hidden]") || !el.getClientRects().length) continue;
    const style = getComputedStyle(el);
    const text = node.data;
    for (let i = 0; i < text.length;) {
      const ch = String.fromCodePoint(text.codePointAt(i));
      if (/\\S/.test(ch)) {
        range.setStart(node, i);
        range.setEnd(node, i + ch.length);
        const r = range.getBoundingClientRect();
        if (r.width > 0 && r.height > 0) {
          out.push({ch, text, x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height,
                    style: style.fontSize + " " + style.fontWeight});
        }
      }
      i += ch.length;
    }
  }
  return out;
}"""
"""Every visible character under ``root``: its box on the page and its style."""
TOFU_JS = """([styles, absent]) => {
  const box = document.createElement("div");
  box.dataset.probe = "tofu";
  for (const style of styles) {
    const [size, weight] = style.split(" ");
    const span = document.createElement("span");
    span.style.fontSize = size;
    span.style.fontWeight = weight;
    span.style.background = "#fff";
    span.style.color = "#000";
    span.textContent = absent;
    span.dataset.style = style;
    box.appendChild(span);
    box.appendChild(document.createTextNode(" "));
  }
  document.body.appendChild(box);
}"""
"""Draws `ABSENT` once in each style, at the end of the page."""


@dataclass(frozen=True)
class Ink:
    width: int
    height: int
    pixels: frozenset[tuple[int, int]]
    advance: float


def ink(shot: Image.Image, box: dict[str, Any]) -> Ink:
    """The ink of one character's box: the pixels unlike the box's commonest colour, from
    the top-left of their own bounds."""
    left, top = round(box["x"]), round(box["y"])
    crop = shot.crop((left, top, left + max(1, round(box["w"])), top + max(1, round(box["h"]))))
    rgb = crop.convert("RGB")
    raw = rgb.tobytes()
    colours = [tuple(raw[i : i + 3]) for i in range(0, len(raw), 3)]
    ground = Counter(colours).most_common(1)[0][0]
    width = rgb.width
    marked = [
        (i % width, i // width)
        for i, colour in enumerate(colours)
        if max(abs(a - b) for a, b in zip(colour, ground, strict=True)) > 80
    ]
    if not marked:
        return Ink(0, 0, frozenset(), box["w"])
    x0, y0 = min(x for x, _ in marked), min(y for _, y in marked)
    x1, y1 = max(x for x, _ in marked), max(y for _, y in marked)
    pixels = frozenset((x - x0, y - y0) for x, y in marked)
    return Ink(x1 - x0 + 1, y1 - y0 + 1, pixels, box["w"])


def is_tofu(seen: Ink, tofu: Ink) -> bool:
    """Whether ``seen`` is the tofu's box (same width, same ink, give or take a pixel)."""
    if abs(seen.advance - tofu.advance) > 0.6 or not seen.pixels:
        return False
    if abs(seen.width - tofu.width) > 1 or abs(seen.height - tofu.height) > 1:
        return False
    shared = len(seen.pixels & tofu.pixels)
    return shared >= 0.8 * max(len(seen.pixels), len(tofu.pixels))


async def undrawn(page: Any, root: str) -> list[tuple[str, str, str]]:
    """The characters under ``root`` drawn as tofu: (character, its text, its style)."""
    boxes = await page.evaluate(GLYPHS_JS, root)
    styles = sorted({box["style"] for box in boxes})
    await page.evaluate(TOFU_JS, [styles, ABSENT])
    tofu_boxes = await page.evaluate(
        """() => Array.from(document.querySelectorAll('[data-probe="tofu"] span')).map((s) => {
            const r = s.getBoundingClientRect();
            return {x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height,
                    style: s.dataset.style}; })"""
    )
    shot = Image.open(io.BytesIO(await page.screenshot(full_page=True)))
    tofus = {box["style"]: ink(shot, box) for box in tofu_boxes}
    await page.evaluate("() => document.querySelector('[data-probe=\"tofu\"]').remove()")
    assert all(t.pixels for t in tofus.values()), "the tofu itself was not drawn"
    return [
        (box["ch"], box["text"], box["style"])
        for box in boxes
        if is_tofu(ink(shot, box), tofus[box["style"]])
    ]


# ----------------------------------------------------------------- a browser with no CJK font


def cjk_font_files() -> list[str]:
    """The font files fontconfig lists here that draw Chinese (or any Han character)."""
    files: set[str] = set()
    for pattern in (":lang=zh", ":lang=ja", ":lang=ko", ":charset=4e00"):
        listed = subprocess.run(
            ["fc-list", pattern, "file"], capture_output=True, text=True, check=True
        ).stdout
        files.update(line.rstrip().rstrip(":") for line in listed.splitlines() if line.strip())
    return sorted(files)


def no_cjk_fonts(folder: Path) -> dict[str, str]:
    """An environment whose fontconfig is the system's without any font that draws Han
    characters (the machine of issue 50 item 4); checked with ``fc-list`` itself."""
    assert shutil.which("fc-list"), "fontconfig's fc-list is needed (it comes with Chromium)"
    rejected = "".join(f"<glob>{_escaped(path)}</glob>" for path in cjk_font_files())
    config = folder / "fonts.conf"
    config.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n'
        '<include ignore_missing="yes">/etc/fonts/fonts.conf</include>\n'
        f"<selectfont><rejectfont>{rejected}</rejectfont></selectfont>\n</fontconfig>\n",
        encoding="utf-8",
    )
    env = {**os.environ, "FONTCONFIG_FILE": str(config)}
    left = subprocess.run(
        ["fc-list", ":charset=4e00"], capture_output=True, text=True, env=env, check=True
    ).stdout
    assert not left.strip(), f"a CJK font is still there: {left}"
    latin = subprocess.run(
        ["fc-list", ":lang=en"], capture_output=True, text=True, env=env, check=True
    ).stdout
    assert latin.strip(), "no Latin font left: the page could draw nothing"
    return env


def _escaped(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
