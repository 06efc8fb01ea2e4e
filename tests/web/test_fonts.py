"""Issue 50 item 4: every word the page shows is drawn, on a machine with no CJK font.

Chromium here is given a fontconfig without any font that draws Han characters (the
system's, less those: `tests.web.glyphs.no_cjk_fonts`), so the page has only its own
``/web/cjk.otf`` for Chinese. Each character on the page — the real page of a table, in
both Chinese scripts and English, then every catalogue string the page shows over whole
matches of both games (titles, seat names, tags, buttons, prompts, settlements), bold and
regular — is compared by its pixels with the tofu box of its style.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import t
from bot.page.seat_view import ON_AUTO
from storage import Database
from tests.bot.harness import CHAT, FakeClock, Harness
from tests.web.glyphs import undrawn
from tests.web.world import World

pytestmark = pytest.mark.asyncio(loop_scope="session")
LANGS = ("zh-Hans", "zh-Hant", "en")
FONT_READY = "() => document.fonts.ready.then(() => document.fonts.status)"


async def drawn_page(browser: Any, url: str, width: int = 360) -> Any:
    context = await browser.new_context(viewport={"width": width, "height": 740})
    page = await context.new_page()
    await page.goto(url)
    await page.locator('[data-role="title"]:not(:empty)').wait_for()
    assert await page.evaluate(FONT_READY) == "loaded"
    return page


@pytest.mark.parametrize(
    ("game", "lang"), [("situan", "zh-Hans"), ("erqiwang", "zh-Hant"), ("erqiwang", "en")]
)
async def test_every_character_of_a_table_page_is_drawn(
    bare_browser: Any, tmp_path: Path, game: str, lang: str
) -> None:
    db = await Database.open(str(tmp_path / "web.sqlite3"))
    world = await World.open(db, game, lang, telegram=False)
    try:
        page = await drawn_page(bare_browser, world.link(0))
        await page.locator('[data-role="hand"] [data-card]').first.wait_for()
        assert await page.evaluate(FONT_READY) == "loaded"
        assert await undrawn(page, "body") == []
        await page.context.close()
    finally:
        await world.close()
        await db.close()


def page_texts(state: dict[str, Any]) -> set[str]:
    """Every text of a page state the page puts on screen (the board's, the seats', the
    controls', the page's own words)."""
    texts = {state["title"], state["prompt"], state["notice"], state["settlement"]}
    texts.update(state["words"].values())
    for seat in state["seats"]:
        texts.add(seat["name"])
        texts.update(seat["marks"])
    texts.update(control["label"] for control in state["controls"])
    board = state["board"]
    if board is not None:
        texts.update([board["last_title"], board["last_line"], *board["lines"]])
        texts.update(shown["label"] for shown in board["shown"])
        texts.update(play["said"] for play in [*board["trick"], *board["last"]])
    return {text for text in texts if text.strip()}


async def words_of_a_match(folder: Path, game: str, lang: str) -> set[str]:
    """What a seat's page and a spectator's showed over a two-hand match of ``game`` in
    ``lang`` (Ann and three AI players; Ann's time runs out, so she is put on 托管)."""
    harness = await Harness.open(str(folder / f"{game}-{lang}.sqlite3"), FakeClock(), seed=5)
    seen: set[str] = set()

    def step(chat: str, state_of: Any) -> None:
        for user in ("ann", None):
            seen.update(page_texts(state_of(user, None)))

    harness.manager.listen_to_steps(step)
    await harness.say("ann", f"/new {game}", lang=lang)
    await harness.say("ann", "/settings max_hands 2")
    for _ in range(3):
        await harness.say("ann", "/addbot")
    await harness.say("ann", "/start")
    await harness.run_until(lambda: CHAT not in harness.manager.tables)
    await harness.db.close()
    seen.update(
        [
            t(lang, "Ready"),
            t(lang, "Waiting for the others to be ready."),
            t(lang, ON_AUTO, button=t(lang, "托管 off")),
        ]
    )
    return seen


SPECIMEN_JS = """(texts) => document.addEventListener("DOMContentLoaded", () => {
  const box = document.createElement("section");
  box.dataset.probe = "specimen";
  for (const [text, bold] of texts) {
    const line = document.createElement("div");
    line.className = bold ? "title" : "";
    line.style.whiteSpace = "pre-wrap";
    line.textContent = text;
    box.appendChild(line);
  }
  document.body.prepend(box);
})"""
"""``texts`` drawn at the top of the page as it loads (before its font has come), one to a
line, in the page's font (bold: as its title and the seats' names are)."""


async def test_every_catalogue_string_the_page_shows_is_drawn_bold_and_regular(
    bare_browser: Any, tmp_path: Path
) -> None:
    texts: set[str] = set()
    for game in ("situan", "erqiwang"):
        for lang in LANGS:
            texts |= await words_of_a_match(tmp_path, game, lang)
    assert {"四团", "二七王", "Situan (四团)", "电脑 2", "电脑", "托管", "亮牌"} <= texts
    assert {"不要", "埋底", "Play", "Ready", "準備好了"} & texts
    db = await Database.open(str(tmp_path / "web.sqlite3"))
    world = await World.open(db, "erqiwang", "zh-Hans", telegram=False)
    try:
        ordered = sorted(texts)
        for start in range(0, len(ordered), 60):
            chunk = [[text, bold] for text in ordered[start : start + 60] for bold in (0, 1)]
            context = await bare_browser.new_context(viewport={"width": 1000, "height": 740})
            await context.add_init_script(script=f"({SPECIMEN_JS})({json.dumps(chunk)})")
            page = await context.new_page()
            await page.goto(world.link(0))
            await page.locator('[data-role="title"]:not(:empty)').wait_for()
            assert await page.evaluate(FONT_READY) == "loaded"
            missing = await undrawn(page, '[data-probe="specimen"]')
            assert missing == [], missing
            await context.close()
    finally:
        await world.close()
        await db.close()
