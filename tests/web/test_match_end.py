"""Issue 50 item 3: the page follows the whole match. At the match's end the last hand's
settlement stays on the page, with the match's score, and its board (the counts, the last
round); a page opened after the end — seat or spectator, from the same link — shows both,
read from storage. A link of that match opens nothing once a new match has begun."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.views.outgoing import Kind
from storage import Database
from tests.web.test_browser import PHONE, open_page
from tests.web.world import World

pytestmark = pytest.mark.asyncio(loop_scope="session")


def end_posts(world: World) -> tuple[str, str]:
    """The group's last two posts: the last hand's settlement, then the match's score."""
    group = [m.text for m in world.recorder.sent if m.kind == Kind.GROUP]
    assert group[-1].startswith("The match is over."), group[-3:]
    return group[-2], group[-1]


async def shows_the_end(page: Any, settled: str, score: str) -> None:
    """The page shows the settlement (as the group was told it, without the achievements
    line that may follow) and the match's score, and the board it ended with."""
    settlement = page.locator('[data-role="settlement"]')
    await settlement.filter(has_text="The hand is over.").wait_for()
    text = await page.locator('[data-role="settlement-text"]').text_content()
    assert text and settled.startswith(text), (text, settled)
    assert len(text.splitlines()) >= 3
    notice = page.locator('[data-role="notice"]')
    assert await notice.is_visible() and await notice.text_content() == score
    counts = await page.locator('[data-role="count"]').all_text_contents()
    assert len(counts) == 4, counts
    assert await page.locator('[data-role="controls"] button').count() == 0


async def test_the_last_settlement_stays_at_the_match_end_and_opens_after_it(
    browser: Any, tmp_path: Path
) -> None:
    db = await Database.open(str(tmp_path / "web.sqlite3"))
    world = await World.open(db, "erqiwang", "en", telegram=False, settings=("max_hands 1",))
    try:
        link, watch = world.link(0), world.link(None)
        open_at_the_end = await open_page(browser, link)
        await open_at_the_end.locator('[data-role="hand"] [data-card]').first.wait_for()
        await world.say(world.users[0], "/auto on")
        await world.drive_to_the_match_end()
        settled, score = end_posts(world)
        assert settled.startswith("The hand is over.") and score.count("\n") >= 1
        await shows_the_end(open_at_the_end, settled, score)

        # Opened after the end, from the same link (and a spectator's): the same end.
        for url in (link, watch):
            later = await open_page(browser, url)
            await shows_the_end(later, settled, score)
            await later.context.close()

        # A new match at the chat: the old link opens nothing of it.
        world.clock.now += 1
        await world.say(world.users[0], "/new erqiwang")
        frames: list[dict[str, Any]] = []
        page = await open_page(browser, link, frames)
        await page.locator('[data-role="banner"]:not([hidden])').wait_for()
        assert [f["type"] for f in frames] == ["gone"]
        await page.context.close()
        await open_at_the_end.context.close()
    finally:
        await world.close()
        await db.close()


def on_screen(box: dict[str, float] | None) -> bool:
    return (
        box is not None
        and box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= PHONE["width"]
        and box["y"] + box["height"] <= PHONE["height"]
    )


@pytest.mark.parametrize(
    ("game", "lang", "hands"), [("situan", "zh-Hans", 2), ("erqiwang", "en", 3)]
)
async def test_ready_and_the_settlements_close_are_on_a_phones_screen(
    browser: Any, tmp_path: Path, game: str, lang: str, hands: int
) -> None:
    """At 360 × 740, between hands and at the match's end, without scrolling: Ready (it
    works from there) and the settlement's close; once closed, Ready is still there."""
    db = await Database.open(str(tmp_path / "web.sqlite3"))
    world = await World.open(db, game, lang, telegram=False, settings=(f"max_hands {hands}",))
    try:
        await world.say(world.users[0], "/auto on")
        hand = world.table.hand
        for _ in range(2000):  # to the hand's end (二七王's first was dealt again: all passed)
            if hand.over:
                break
            await world.next_deadline()
        assert world.table.state == "between" and world.table.hand_number == hands - 1
        page = await open_page(browser, world.link(0))
        await page.locator('[data-role="settlement"]:not([hidden])').wait_for()
        ready = page.locator('[data-action="ready"]')
        close = page.locator('[data-role="hide-settlement"]')
        assert on_screen(await ready.bounding_box()), await ready.bounding_box()
        assert on_screen(await close.bounding_box()), await close.bounding_box()
        assert await page.evaluate("() => scrollY") == 0
        await close.click()
        assert await ready.is_visible() and await page.locator('[data-action="ready"]').count() == 1
        await page.locator('[data-role="show-settlement"]').click()
        await ready.click()
        await ready.wait_for(state="detached")  # the host took it: the page has no Ready
        assert world.table.seats[0].ready or world.table.hand_number == 2
        await page.context.close()

        await world.drive_to_the_match_end()
        page = await open_page(browser, world.link(0))
        await page.locator('[data-role="settlement"]:not([hidden])').wait_for()
        close = page.locator('[data-role="hide-settlement"]')
        assert on_screen(await close.bounding_box()), await close.bounding_box()
        score = page.locator('[data-role="notice"]')  # the match's score, first screen too
        assert on_screen(await score.bounding_box()), await score.bounding_box()
        await page.context.close()
    finally:
        await world.close()
        await db.close()
