"""Issue 55, item 1 on the web table: the Hint button shows the hint's line in the page's
language and chooses its cards, ready to play; played, the move is marked in the record."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import t
from bot.table.hint_book import UNLIMITED
from engine.actions import Play
from storage import Database
from tests.web.test_browser import open_page
from tests.web.world import World

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest.mark.parametrize(("game", "lang"), [("situan", "zh-Hans"), ("erqiwang", "en")])
async def test_the_hint_button_chooses_the_hinted_cards_on_the_page(
    browser: Any, tmp_path: Path, game: str, lang: str
) -> None:
    db = await Database.open(str(tmp_path / "web.sqlite3"))
    world = await World.open(db, game, lang, telegram=False)
    try:
        # A practice-like table: the host set hints before the deal (`/settings` in a lobby).
        world.table.set_table_options(replace(world.table.table_options, hints_per_hand=UNLIMITED))
        mine = await open_page(browser, world.link(0))
        await mine.locator('[data-role="hand"] [data-card]').first.wait_for()
        hint_button = mine.locator('[data-action="hint"]')
        assert await hint_button.inner_text() == t(lang, "Hint")
        line = mine.locator('[data-role="hint"]')
        table = world.table
        for _ in range(3):  # a hint of 冲关 first is taken, then the play's is asked for
            await hint_button.click()
            await line.filter(has_text={"zh-Hans": "提示：", "en": "Hint: "}[lang]).wait_for()
            told = table.hints.told(table.hand_number, table.turn_count, 0)
            if isinstance(told, Play):
                break
            assert told is not None
            await world.say(world.users[0], f"/{told.act.replace('declare_', '')}")
            await line.filter(has_text="").wait_for(state="hidden")
        assert isinstance(told, Play)
        size = len(told.cards or told.ranks)
        chosen = mine.locator('[data-role="hand"] .chosen')
        await mine.locator('[data-role="verdict"]').filter(has_text=t(lang, "Playable")).wait_for()
        assert await chosen.count() == size
        texts = await chosen.evaluate_all("cards => cards.map(c => c.dataset.card)")
        if told.cards:
            assert sorted(texts) == sorted(c.text for c in told.cards)
        else:
            assert sorted(x[1:] for x in texts) == sorted(told.ranks)
        moves = table.turn_count
        await mine.locator('[data-action="play"][data-ready="true"]').click()
        await mine.wait_for_function(
            "(before) => document.body.dataset.moves !== before", arg=str(moves)
        )
        (stored,) = await db.hands_of(world.chat, since_number=table.hand_number)
        assert [a for a in stored.actions if a.get("hinted")][-1]["seat"] == 0
        await mine.context.close()
    finally:
        await world.close()
        await db.close()
