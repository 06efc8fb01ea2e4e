"""Issue 55 item 3: the web table's rules panel, in real headless Chromium at 360 × 740 with
no CJK font of the system's (the page's own subset only).

The header's Rules button opens an overlay with what /rules says and draws, in the page
reader's language: the primer's lines (the catalogue's ``primer_*``) and the primer
picture's ladder of plays (`GameFront.primer_picture`, the one source of both) drawn as the
page's own cards, its headers and its result line. Every character is drawn, nothing is
wider than the phone, the panel closes (its button, a tap beside it), and its content is
asked of the server once.
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.games import front_of
from bot.games.erqiwang import primer as erqiwang_primer
from bot.games.situan import primer as situan_primer
from bot.i18n import t
from bot.page.rules_panel import rules_panel
from storage import Database
from tests.web.glyphs import undrawn
from tests.web.world import World

pytestmark = pytest.mark.asyncio(loop_scope="session")
ROOT = Path(__file__).resolve().parents[2]
SHOTS = Path(os.environ.get("RULES_SHOTS", str(ROOT / "artifacts" / "web")))
"""Where the 360 × 740 screenshots of the open panel go: the browser tests' artifacts, or a
folder named by ``RULES_SHOTS``."""
PHONE = {"width": 360, "height": 740}
FONT_READY = "() => document.fonts.ready.then(() => document.fonts.status)"
PANEL = '[data-role="rules"]'
WIDEST = f"""() => {{
  let right = 0;
  for (const el of document.querySelectorAll('{PANEL} *')) {{
    right = Math.max(right, el.getBoundingClientRect().right);
  }}
  const panel = document.querySelector('{PANEL} .panel');
  return {{right, page: document.documentElement.scrollWidth,
          inside: panel.scrollWidth - panel.clientWidth}};
}}"""
"""The panel's rightmost edge, the page's scroll width, and how much wider the panel's
content is than the panel (a horizontal scroll inside it)."""
IN_FLOW = f"""(flat) => {{
  const overlay = document.querySelector('{PANEL}');
  overlay.style.position = flat ? "static" : "";
  overlay.querySelector(".panel").style.maxHeight = flat ? "none" : "";
}}"""
"""The open panel laid in the page's flow, whole, for the glyph check (``flat``), and back:
its full-page screenshot would otherwise stretch the fixed overlay over the whole page (and
the probe that draws the tofu under it), and cut the panel's text at its scroll."""


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant", "en"])
async def test_the_panel_and_the_primer_picture_share_one_ladder(lang: str) -> None:
    """The panel's plays are the primer modules' own (`LADDER`, `EXAMPLES`) through the
    picture /rules draws: every label and card, in order, nothing added or left out."""
    for game, ladder in (("situan", situan_primer.LADDER), ("erqiwang", erqiwang_primer.EXAMPLES)):
        panel = rules_panel(front_of(game), lang)
        assert panel["game"] == game and panel["lang"] == lang
        assert panel["ladder"] == [
            {"label": t(lang, label), "cards": cards.split()} for label, cards in ladder
        ]
        assert panel["by_rank"] == (game == "situan")
        assert len(panel["lines"]) == 5 and all(line.strip() for line in panel["lines"])


@pytest.mark.parametrize(
    ("game", "lang"),
    [
        ("situan", "zh-Hans"),
        ("situan", "en"),
        ("erqiwang", "zh-Hans"),
        ("erqiwang", "en"),
        ("erqiwang", "zh-Hant"),
    ],
)
async def test_the_rules_panel_shows_the_primer_and_its_ladder_in_real_cards(
    bare_browser: Any, tmp_path: Path, game: str, lang: str
) -> None:
    db = await Database.open(str(tmp_path / "web.sqlite3"))
    world = await World.open(db, game, lang, telegram=False)
    try:
        context = await bare_browser.new_context(viewport=PHONE)
        page = await context.new_page()
        asked: list[str] = []
        answered: list[dict[str, Any]] = []

        def socket(ws: Any) -> None:
            ws.on("framesent", lambda payload: asked.append(json.loads(payload)["type"]))
            ws.on("framereceived", lambda payload: answered.append(json.loads(payload)))

        page.on("websocket", socket)
        await page.goto(world.link(0))
        button = page.locator('[data-role="show-rules"]')
        await button.wait_for()
        assert await button.inner_text() == t(lang, "Rules")
        await button.click()
        await page.locator(f"{PANEL}:not([hidden]) .rules-step").first.wait_for()
        assert await page.evaluate(FONT_READY) == "loaded"

        front = front_of(game)
        paragraphs = await page.locator('[data-role="rules-lines"] > *').all()
        lines = [await paragraph.inner_text() for paragraph in paragraphs]
        assert lines == t(lang, front.primer_text).split("\n")
        picture = front.primer_picture(lang)
        steps = page.locator(f"{PANEL} .rules-step")
        assert await steps.count() == len(picture.plays)
        for step, play in zip(await steps.all(), picture.plays, strict=True):
            assert await step.locator(".rules-label").inner_text() == play.seat
            ranks = [await r.inner_text() for r in await step.locator(".card .rank").all()]
            words = {"LJ": t(lang, "LJ"), "BJ": t(lang, "BJ")}
            assert ranks == [words.get(face.rank, face.rank) for face in play.cards]
        cards = sum(len(play.cards) for play in picture.plays)
        assert await page.locator(f"{PANEL} .card").count() == cards
        shown = await page.locator(PANEL).inner_text()
        assert all(text in shown for text in (picture.title, *picture.headers, picture.result))

        widest = await page.evaluate(WIDEST)
        assert widest["right"] <= PHONE["width"] and widest["page"] <= PHONE["width"], widest
        assert widest["inside"] <= 0, widest
        SHOTS.mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(SHOTS / f"rules-{game}-{lang}.png"))
        await page.locator(f"{PANEL} .panel").evaluate("(panel) => panel.scrollTo(0, 1e6)")
        await page.screenshot(path=str(SHOTS / f"rules-{game}-{lang}-end.png"))

        await page.evaluate(IN_FLOW, True)
        assert await undrawn(page, PANEL) == []
        await page.evaluate(IN_FLOW, False)
        await page.locator('[data-role="hide-rules"]').click()
        assert await page.locator(PANEL).is_hidden()
        await button.click()  # opened again: drawn from what came, not asked again
        await page.locator(f"{PANEL}:not([hidden])").wait_for()
        await page.mouse.click(PHONE["width"] / 2, PHONE["height"] - 4)  # the dimmed table
        assert await page.locator(PANEL).is_hidden()
        assert asked.count("rules") == 1
        assert [frame["type"] for frame in answered].count("rules") == 1
        await context.close()
    finally:
        await world.close()
        await db.close()


async def test_the_rules_come_only_to_a_page_that_said_who_it_is(tmp_path: Path) -> None:
    """Over the page's WebSocket: ``rules`` before a good hello is denied (401) and closed
    with nothing of the game; after it, the answer is the panel in the reader's language —
    a seat's and a spectator's alike (the rules are no one's secret)."""
    db = await Database.open(str(tmp_path / "web.sqlite3"))
    world = await World.open(db, "erqiwang", "en", telegram=False)
    url = world.base.replace("http", "ws") + "/table/ws"
    try:
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(url) as socket:
                await socket.send_json({"type": "rules"})
                frame = await asyncio.wait_for(socket.receive_json(), timeout=10)
                assert frame["type"] == "denied" and "rules" not in frame
                closing = await asyncio.wait_for(socket.receive(), timeout=10)
                assert closing.type == aiohttp.WSMsgType.CLOSE and closing.data == 4401
            for seat in (0, None):
                token = world.link(seat).split("#")[1]
                async with session.ws_connect(url) as socket:
                    await socket.send_json({"type": "hello", "auth": "Link " + token})
                    assert (await asyncio.wait_for(socket.receive_json(), timeout=10))[
                        "type"
                    ] == "state"
                    await socket.send_json({"type": "rules"})
                    frame = await asyncio.wait_for(socket.receive_json(), timeout=10)
                    assert frame == {"type": "rules", "rules": rules_panel(world.table.front, "en")}
                    assert frame["rules"]["ladder"][0]["cards"][:3] == ["BJ", "LJ", "H7"]
    finally:
        await world.close()
        await db.close()
