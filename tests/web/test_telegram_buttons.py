"""The web table's doors on Telegram, through the real python-telegram-bot against the fake Bot
API: with the web table served, each private hand carries an "Open table" Mini App button and
the group's table a link that opens the Mini App at that table; without it, nothing changes.
The hand's button, opened in Chromium as Telegram opens it (its initData after ``#``), shows
that player's own seat; the group's link opened by a member who is not seated shows the public
view, with no card of anyone's hand."""

from __future__ import annotations

from collections import Counter
from typing import Any
from urllib.parse import quote

import pytest

from adapters.web.params import table_param
from tests.telegram.fake_bot_api import BOT_USERNAME
from tests.telegram.world import GROUP, TOKEN, TelegramWorld, buttons_of
from tests.waiting import eventually
from tests.web.test_browser import open_page
from tests.web.world import card_texts, init_data, public_cards

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def dealt(tmp_path: Any, name: str, web: bool) -> TelegramWorld:
    world = await TelegramWorld.open(str(tmp_path / f"{name}.sqlite3"), web=web)
    await world.say(11, "/new situan")
    for player in (12, 13, 14):
        await world.say(player, "/join")
    await world.say(11, "/start")
    await world.settle()
    return world


def web_app_urls(message: dict[str, Any]) -> list[str]:
    return [b["web_app"]["url"] for b in buttons_of(message) if "web_app" in b]


def unstamped(rows: list[list[dict[str, Any]]]) -> list[list[tuple[str, str]]]:
    """Each button's label and command, without the stamp (each table's stamps differ)."""
    return [[(b["text"], b.get("callback_data", "").split("|")[-1]) for b in row] for row in rows]


def links(message: dict[str, Any]) -> list[str]:
    return [b["url"] for b in buttons_of(message) if "url" in b]


async def test_hands_and_the_group_table_carry_the_web_tables_doors(tmp_path) -> None:
    plain = await dealt(tmp_path, "plain", web=False)
    try:
        plain_hand = plain.hand_message(11)
        plain_group = plain.group_messages()
    finally:
        await plain.close()
    world = await dealt(tmp_path, "web", web=True)
    try:
        param = table_param(world.key())
        assert param is not None
        hand = world.hand_message(11)
        assert web_app_urls(hand) == [f"{world.web_base}/table?t={param}"]
        assert [b["text"] for b in buttons_of(hand) if "web_app" in b] == ["打开牌桌"]
        # The hand's own buttons are as they were; the door is a row of its own, below them.
        rows = hand["reply_markup"]["inline_keyboard"]
        assert unstamped(rows[:-1]) == unstamped(plain_hand["reply_markup"]["inline_keyboard"])
        door = {"text": "打开牌桌", "web_app": {"url": f"{world.web_base}/table?t={param}"}}
        assert rows[-1] == [door]
        group_link = f"https://t.me/{BOT_USERNAME}?startapp={param}"
        await eventually(  # the group's table is paced: it may come a moment later
            lambda: any(group_link in links(m) for m in world.group_messages()),
            10.0,
            0.01,
            "the group's table linking to the Mini App",
        )
        assert all(not web_app_urls(m) for m in world.group_messages())  # none in a group
        assert not any(group_link in links(m) for m in plain_group)
    finally:
        await world.close()


async def test_the_hand_button_opens_the_players_seat_and_the_group_link_the_public_view(
    tmp_path, browser
) -> None:
    world = await dealt(tmp_path, "browse", web=True)
    try:
        table = world.manager.tables[world.key()]
        seat = table.seat_of("tg:u11")
        assert seat is not None
        url = web_app_urls(world.hand_message(11))[0]
        # Telegram opens a Mini App button's URL with the user's initData after "#".
        page = await open_page(browser, f"{url}#tgWebAppData={quote(init_data(11, TOKEN))}")
        cards = page.locator('[data-role="hand"] [data-card]')
        await cards.first.wait_for()
        shown = Counter([await c.get_attribute("data-card") for c in await cards.all()])
        held = Counter(str(card) for card in table.hand.cards_of(seat))
        assert shown == held
        await page.context.close()

        # The group's link: Telegram opens the Mini App with the link's start parameter in
        # initData. A member of the group who is not seated (getChatMember says "member").
        param = table_param(world.key())
        frames: list[dict[str, Any]] = []
        watcher = init_data(15, TOKEN, start_param=param, first_name="Eve")
        page = await open_page(
            browser, f"{world.web_base}/table#tgWebAppData={quote(watcher)}", frames
        )
        await page.locator('[data-seat="0"]').wait_for()
        await page.wait_for_function("() => document.body.dataset.moves !== undefined")
        assert await page.locator('[data-role="hand"] [data-card]').count() == 0
        private = set().union(*(set(map(str, table.hand.cards_of(s))) for s in range(4)))
        for frame in frames:
            leaked = set(card_texts(frame)) & private - set(public_cards(table.hand))
            assert not leaked, f"a watcher's frame holds private cards: {sorted(leaked)[:5]}"
        assert frames, "the watcher's page got the table"
        assert any(
            c.method == "getChatMember" and str(c.params.get("chat_id")) == str(GROUP)
            for c in world.api.calls
        )
        await page.context.close()
    finally:
        await world.close()
