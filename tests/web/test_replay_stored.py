"""Issue 55, item 5: the hand just settled is stepped through on the web, from its stored
record, trick by trick with every hand shown — opened from the table page's Replay button with
that page's credential; a stranger's page (no credential, a forged one) is refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.games import front_of
from bot.i18n import t
from engine import game_of
from storage import Database
from tests.web.test_browser import PHONE, SCREENS, open_page
from tests.web.world import World

pytestmark = pytest.mark.asyncio(loop_scope="session")


def closings(game: str, record: dict[str, Any]) -> list[int]:
    """The steps of ``record`` (1 = after its first action) that close a trick or round, and
    the cards each seat holds at the start, from the engine."""
    engine, front = game_of(game), front_of(game)
    hand = engine.hand_from_record(record)
    closing = []
    for step, raw in enumerate(record["actions"], start=1):
        events = hand.apply(engine.action_from_json(raw))
        if any(front.closes_a_trick(event) for event in events):
            closing.append(step)
    return closing


@pytest.mark.parametrize("game", ["situan", "erqiwang"])
async def test_replay_steps_through_every_trick_of_the_stored_hand(
    browser: Any, tmp_path: Path, game: str
) -> None:
    db = await Database.open(str(tmp_path / "web.sqlite3"))
    world = await World.open(db, game, "en", telegram=False)
    try:
        await world.say(world.users[0], "/auto on")
        await world.drive_to_the_end()
        number = world.table.hand_number
        (stored,) = await db.hands_of(world.chat, since_number=number)
        record = {**stored.start, "actions": stored.actions}
        closing = closings(game, record)
        assert len(closing) >= 5
        page = await open_page(browser, world.link(0))
        replay = page.locator('[data-role="replay"]')
        await replay.wait_for()
        assert await replay.inner_text() == t("en", "Replay this hand")
        await replay.click()
        await page.wait_for_url("**/replay?hand=*")
        await page.locator('body[data-step="0"]').wait_for()
        hands = page.locator('[data-role="hands"] > div')
        assert await hands.count() == 4
        dealt = [len(cards) for cards in record["deal"]["hands"]]
        for seat, count in enumerate(dealt):
            assert f"({count})" in await hands.nth(seat).inner_text()
        last = len(record["actions"])
        for step in sorted({*closing, last}):  # trick by trick, then to the end
            await page.locator('[data-action="next-trick"]').click()
            await page.locator(f'body[data-step="{step}"]').wait_for()
            assert await hands.count() == 4
        SCREENS.mkdir(parents=True, exist_ok=True)
        await page.set_viewport_size(PHONE)
        await page.screenshot(path=str(SCREENS / f"replay-{game}.png"))
        await page.locator('[data-action="back-trick"]').click()  # and back a trick
        back = closing[-2] if closing[-1] == last else closing[-1]
        await page.wait_for_function("(step) => document.body.dataset.step === step", arg=str(back))
        await page.context.close()

        # A stranger: no credential of this table, or a forged one — refused, nothing shown.
        for credential in (None, "Link forged.token"):
            context = await browser.new_context(viewport=PHONE)
            if credential is not None:
                await context.add_init_script(
                    f"sessionStorage.setItem('table-credential', {credential!r})"
                )
            stranger = await context.new_page()
            await stranger.goto(f"{world.base}/replay?hand={number}")
            await stranger.locator('body[data-refused="401"]').wait_for()
            assert await stranger.locator('[data-role="hands"] > div').count() == 0
            await context.close()
    finally:
        await world.close()
        await db.close()
