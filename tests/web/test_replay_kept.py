"""Issue 55, item 4: a hand is studied from storage by its id whatever became of its table.

A group's match (Telegram, two people and two AI players) is played to its end and its table
closes; then, in headless Chromium at 360 × 740, the replay page of each of its hands opens
for a player (a Mini App's ``initData``) and steps through every trick to the end, and opens
for a member of the group who did not play; a stranger is refused — with a Telegram identity,
with a link the bot signed for another chat, with none at all — and is shown no card."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from adapters.web.auth import WATCH
from adapters.web.door import WebDoor
from bot.i18n import t
from storage import Database
from tests.web.glyphs import undrawn
from tests.web.test_browser import PHONE, SCREENS
from tests.web.test_fonts import FONT_READY
from tests.web.test_replay_stored import closings
from tests.web.world import World, init_data

pytestmark = pytest.mark.asyncio(loop_scope="session")
MEMBER, STRANGER = 777, 888


async def ended_group_match(tmp_path: Path, game: str) -> tuple[Database, World]:
    db = await Database.open(str(tmp_path / "kept.sqlite3"))

    async def may_watch(chat: str, user: str) -> bool:  # the group's members (Telegram's)
        return chat == "tg:-100777" and user == f"tg:u{MEMBER}"

    world = await World.open(db, game, "en", telegram=True, settings=("max_hands 1",),
                             may_watch=may_watch)  # fmt: skip
    for user in world.users:
        await world.say(user, "/auto on")
    await world.drive_to_the_match_end()
    assert not world.manager.has_table(world.chat)
    return db, world


def mini_app_replay(world: World, hand_id: int, user_id: int) -> str:
    data = quote(init_data(user_id), safe="")
    return f"{world.base}/replay?id={hand_id}#tgWebAppData={data}"


async def opened(browser: Any, url: str) -> Any:
    context = await browser.new_context(viewport=PHONE)
    page = await context.new_page()
    await page.goto(url)
    await page.locator("body[data-step], body[data-refused]").wait_for()
    return page


@pytest.mark.parametrize("game", ["situan", "erqiwang"])
async def test_a_hand_of_an_ended_match_replays_every_trick_for_a_player(
    browser: Any, tmp_path: Path, game: str
) -> None:
    db, world = await ended_group_match(tmp_path, game)
    try:
        hands = await db.hands_played(world.users[0], 20)
        assert hands
        for hand_id in hands:  # each hand the match played (二七王 may redeal)
            kept = await db.kept_hand(hand_id)
            assert kept is not None and kept.chat == world.chat
            record = kept.record()
            page = await opened(browser, mini_app_replay(world, hand_id, 501))
            assert await page.locator("body").get_attribute("data-step") == "0"
            rows = page.locator('[data-role="hands"] > div')
            assert await rows.count() == 4
            for seat, cards in enumerate(record["deal"]["hands"]):
                assert f"({len(cards)})" in await rows.nth(seat).inner_text()
            last = len(record["actions"])
            for step in sorted({*closings(game, record), last}):  # trick by trick, to the end
                await page.locator('[data-action="next-trick"]').click()
                await page.locator(f'body[data-step="{step}"]').wait_for()
                assert await rows.count() == 4
            assert await page.locator('[data-role="step"]').inner_text() == f"{last} / {last}"
            await page.context.close()
    finally:
        await world.close()
        await db.close()


async def test_the_replay_of_a_group_hand_opens_for_its_people_and_refuses_a_stranger(
    browser: Any, tmp_path: Path
) -> None:
    db, world = await ended_group_match(tmp_path, "situan")
    try:
        hand_id = (await db.hands_played(world.users[0], 1))[0]
        door = WebDoor(world.base, world.web.signer)
        allowed = {
            "a player (Mini App)": mini_app_replay(world, hand_id, 502),
            "a member of the group (Mini App)": mini_app_replay(world, hand_id, MEMBER),
            "a spectator signed a link of the group": door.signed_page_of_table(
                f"/replay?id={hand_id}", "dc:u5", world.chat, WATCH
            ),
        }
        for who, url in allowed.items():
            page = await opened(browser, url)
            assert await page.locator("body").get_attribute("data-step") == "0", who
            assert await page.locator('[data-role="hands"] > div').count() == 4, who
            await page.context.close()
        # (the page, the answer, the language it is told in: Telegram's, else the bot's)
        refused = {
            "a stranger (Mini App)": (mini_app_replay(world, hand_id, STRANGER), "404", "en"),
            "a stranger signed a link of another chat": (
                door.signed_page_of_table(f"/replay?id={hand_id}", "dc:u6", "dc:c42", 0),
                "404",
                world.manager.language,
            ),
            "a hand that is not stored": (mini_app_replay(world, hand_id + 99, 501), "404", "en"),
            "no credential": (f"{world.base}/replay?id={hand_id}", "401", "en"),
        }
        for who, (url, status, lang) in refused.items():
            page = await opened(browser, url)
            assert await page.locator("body").get_attribute("data-refused") == status, who
            assert await page.locator('[data-role="hands"] > div').count() == 0, who
            if status == "404":  # what to do instead, in the visitor's language
                assert await page.locator('[data-role="refusal"]').inner_text() == t(
                    lang,
                    "Not a hand you played or may watch: ask /replay where you play for "
                    "your own hands.",
                ), who
            await page.context.close()
    finally:
        await world.close()
        await db.close()


SHOTS = Path(os.environ.get("REPLAY_SHOTS", str(SCREENS)))
"""Where the 360 × 740 screenshots of a replay go: the browser tests' artifacts, or a folder
named by ``REPLAY_SHOTS``."""


async def in_one_row(page: Any) -> None:
    """The five step buttons and the step count sit in one row inside the screen — with
    the widest count a hand can show."""
    await page.locator('[data-role="step"]').evaluate(
        "(step) => { step.textContent = '888 / 888'; }"
    )
    boxes = [
        await item.bounding_box() for item in await page.locator(".controls > :not([hidden])").all()
    ]
    assert len(boxes) == 6  # five buttons and the step count
    middles = [box["y"] + box["height"] / 2 for box in boxes]  # one row: one middle line
    assert max(middles) - min(middles) < 2, boxes
    assert all(box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] for box in boxes)
    await page.locator('[data-action="first"]').click()  # and drawn again as it was
    await page.locator('[data-role="step"]:not(:has-text("888"))').wait_for()


async def opened_to_paste(browser: Any, url: str) -> Any:
    context = await browser.new_context(viewport=PHONE)
    page = await context.new_page()
    await page.goto(url)
    return page


@pytest.mark.parametrize("lang", ["zh-Hans", "en"])
async def test_the_replay_page_draws_every_glyph_and_its_steps_share_one_row(
    bare_browser: Any, tmp_path: Path, lang: str
) -> None:
    """On a machine with no CJK font (the page's own subset only), at 360 × 740: every
    character of the replay page is drawn — at the deal, mid-hand and at the end — and the
    step buttons (|◀ ◀◀ ◀ ▶ ▶▶) and the step count sit in one row inside the screen."""
    db, world = await ended_group_match(tmp_path, "erqiwang")
    try:
        hand_id = (await db.hands_played(world.users[0], 1))[0]
        data = quote(init_data(501, language=lang.lower()), safe="")
        page = await opened(bare_browser, f"{world.base}/replay?id={hand_id}#tgWebAppData={data}")
        assert await page.locator("body").get_attribute("data-step") == "0"
        assert await page.evaluate(FONT_READY) == "loaded"
        await in_one_row(page)
        assert await undrawn(page, "body") == []
        for _ in range(4):
            await page.locator('[data-action="next-trick"]').click()
        await page.wait_for_function("() => Number(document.body.dataset.step) > 0")
        assert await undrawn(page, "body") == []
        # The AI seats are named in the reader's words, as at the table (电脑 3, AI 3).
        shown = await page.locator("body").inner_text()
        ai_names = ("电脑 3", "电脑 4") if lang == "zh-Hans" else ("AI 3", "AI 4")
        assert all(name in shown for name in ai_names), shown
        assert lang != "zh-Hans" or "AI 3" not in shown
        SHOTS.mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(SHOTS / f"replay-{lang}.png"))
        await page.locator('[data-action="next-trick"]').click(click_count=60)
        kept = await db.kept_hand(hand_id)
        assert kept is not None
        last = str(len(kept.actions))
        await page.wait_for_function("(last) => document.body.dataset.step === last", arg=last)
        assert await undrawn(page, "body") == []
        await page.screenshot(path=str(SHOTS / f"replay-{lang}-end.png"))
        await page.context.close()
        # A pasted record (/export's): its Load button is above the row, which keeps to one.
        page = await opened_to_paste(bare_browser, f"{world.base}/replay?lang={lang}")
        await page.locator('[data-role="record"]').fill(json.dumps(kept.record()))
        await page.locator('[data-action="load"]').click()
        await page.locator('body[data-step="0"]').wait_for()
        await in_one_row(page)
        await page.context.close()
    finally:
        await world.close()
        await db.close()
