"""The web table of a quick table (issue 54), through the real libraries and a real Chromium: a
Telegram player (python-telegram-bot against the fake Bot API, in English) and a Discord
player (discord.py against the fake gateway, in 简体) are matched at one quick table with two
AI seats. The Telegram player opens the Mini App button of their private hand, the Discord
player the link that "Open table" under the table's message in their DM answers; each page
shows that player's own seat — their hand, no card of anyone else's — in their language. A
card played on a page is stored once and shown to both players on their platforms.

A quick table seats strangers and lives in no group, so no one but its players may look at
it, not even its names: a watcher's link of it signed for someone not seated, or a Mini App
opened by them, is told what a chat with no table is told (404, "gone"); a seat's link signed
for them is a bad link (401); "Open table" pressed by them answers no link."""

from __future__ import annotations

import asyncio
import copy
import time
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import quote

import aiohttp
import pytest

from adapters.web.door import WebDoor
from adapters.web.params import table_param
from bot.games.situan.texts import round_now_text
from bot.i18n import t
from tests.bot.harness import FakeClock
from tests.discord.test_web_link import link_of, web_button
from tests.discord.world import DiscordWorld
from tests.quick_worlds import quick_table_of, telegram_beside
from tests.telegram.fake_bot_api import text_update, user
from tests.telegram.world import buttons_of
from tests.waiting import eventually
from tests.web.test_browser import open_page, tap
from tests.web.world import card_texts, init_data, public_cards

pytestmark = pytest.mark.asyncio(loop_scope="session")
TOKEN = "123:TEST"
ANN = user(11, "Ann", "en")  # Telegram, in English
BOB = "22"  # Discord member Bob, whose client is in zh-CN
EVE = "25"  # a Discord member who is not at the table
SCREENS = Path(__file__).resolve().parents[2] / "artifacts" / "web"


async def test_each_quick_player_sees_their_own_seat_on_the_web(
    browser: Any, tmp_path: Path
) -> None:
    clock = FakeClock(time.time())  # the signed links' and initData's clock too
    world = await DiscordWorld.open(
        str(tmp_path / "quick.sqlite3"), seed=3, clock=clock, web_token=TOKEN
    )
    door = world.adapter.web
    assert door is not None and world.web_table is not None
    # One manager, two platforms, one web table with one signer for both.
    api, telegram = await telegram_beside(world, "zh-Hans", WebDoor(door.base, door.signer))
    pages: list[Any] = []
    try:
        api.push(text_update(ANN, 11, "/quick situan"))
        await world.slash(BOB, "quick", channel_id=None, what="situan")
        table = await quick_table_of(world, clock, "tg:u11", "dc:u22")
        chat = table.chat
        seats = {who: table.seat_of(who) for who in ("tg:u11", "dc:u22")}
        dm = world.fake.dm_channels[BOB]

        # Telegram: the private hand's Mini App button, labelled in Ann's language.
        def tg_hand() -> dict[str, Any] | None:
            shown = [m for m in api.chat_messages(11) if _web_apps(m)]
            return shown[-1] if shown else None

        await eventually(lambda: tg_hand() is not None, 10.0, 0.01, "Ann's hand with its door")
        hand = tg_hand()
        assert hand is not None
        (button,) = _web_apps(hand)
        assert button["text"] == "Open table"
        assert button["web_app"]["url"] == f"{door.base}/table?t={table_param(chat)}"

        # Discord: "Open table" under the table's message in Bob's DM, labelled in 简体; a
        # press answers Bob alone with a link to his seat, signed for him.
        def dc_table() -> dict[str, Any] | None:
            shown = [m for m in world.fake.channel_messages(dm) if web_button(m)]
            return shown[-1] if shown else None

        await eventually(lambda: dc_table() is not None, 10.0, 0.01, "Bob's Open table")
        message = dc_table()
        assert message is not None
        pressed = web_button(message)
        assert pressed is not None and pressed["label"] == "打开牌桌"
        answer = await world._component(BOB, message, pressed["custom_id"], 2, None)
        assert answer[0]["data"]["flags"] & 64  # ephemeral: Bob alone sees it
        bob_link = link_of(answer[0])
        visitor = door.signer.check(bob_link.split("#", 1)[1])
        assert (visitor.user, visitor.chat, visitor.seat) == ("dc:u22", chat, seats["dc:u22"])

        # Each page: that player's own seat, in their language; no card of another hand.
        ann_frames: list[dict[str, Any]] = []
        bob_frames: list[dict[str, Any]] = []
        ann_url = f"{button['web_app']['url']}#tgWebAppData={quote(init_data(11, TOKEN))}"
        ann = await open_page(browser, ann_url, ann_frames)
        bob = await open_page(browser, bob_link, bob_frames)
        pages += [ann, bob]
        for page, who, lang in ((ann, "tg:u11", "en"), (bob, "dc:u22", "zh-Hans")):
            cards = page.locator('[data-role="hand"] [data-card]')
            await cards.first.wait_for()
            shown = await cards.evaluate_all("cards => cards.map(c => c.dataset.card)")
            seat = seats[who]
            assert seat is not None
            assert Counter(shown) == Counter(str(c) for c in table.hand.cards_of(seat))
            rules = page.locator('[data-role="show-rules"]')
            await rules.filter(has_text=t(lang, "Rules")).wait_for()
        assert t("zh-Hans", "Rules") != t("en", "Rules")

        # A card played on the page of the player whose turn it is: once, on both platforms.
        mover = await _a_persons_turn(table, clock, seats)
        page = ann if mover == "tg:u11" else bob
        seat = seats[mover]
        assert seat is not None
        play = next(a for a in table.hand.legal_actions(seat) if a.act == "play")

        def ann_sees() -> str:  # Ann's private chat: texts and captions, as edited last
            return "\n".join(m.get("text") or m.get("caption") or "" for m in api.chat_messages(11))

        def bob_sees() -> str:  # Bob's DM
            return "\n".join(m.get("content") or "" for m in world.fake.channel_messages(dm))

        before = (table.turn_count, ann_sees(), bob_sees())
        await tap(page, _indices(table, seat, play))
        await page.locator('[data-action="play"][data-ready="true"]').wait_for()
        await page.locator('[data-action="play"]').click()
        await eventually(lambda: table.turn_count > before[0], 10.0, 0.01, "the page's play")
        # Each platform's table message shows the play, in its reader's language.
        names = ["", "", "", ""]
        names[seat] = table.names[mover]
        for lang, shown_on, earlier in (
            ("en", ann_sees, before[1]),
            ("zh-Hans", bob_sees, before[2]),
        ):
            line = t(
                lang,
                "This round: {plays}",
                plays=round_now_text(lang, table.hand.round_plays, names),
            )
            assert line not in earlier
            await eventually(
                lambda line=line, shown_on=shown_on: line in shown_on(), 10.0, 0.01, line
            )
        (stored,) = await world.db.hands_of(chat)
        plays = [a for a in stored.actions if a.get("act") == "play" and a.get("seat") == seat]
        assert len(plays) == 1, stored.actions

        # What each page was sent: its own hand and the public cards, never another's.
        dealt = table.hand.start_record()["deal"]["hands"]
        public = public_cards(table.hand)
        for frames, who in ((ann_frames, "tg:u11"), (bob_frames, "dc:u22")):
            seat = seats[who]
            assert seat is not None
            states = [f["state"] for f in frames if f.get("type") == "state"]
            assert states and all(s["you"] == seat for s in states)
            for state in states:
                assert Counter(card_texts(state)) <= Counter(dealt[seat]) + public
        assert {s["lang"] for f in ann_frames if (s := f.get("state"))} == {"en"}
        assert {s["lang"] for f in bob_frames if (s := f.get("state"))} == {"zh-Hans"}

        SCREENS.mkdir(parents=True, exist_ok=True)
        for page, name in ((ann, "quick_telegram_en"), (bob, "quick_discord_zh")):
            await page.evaluate("document.fonts.ready.then(() => true)")
            await page.screenshot(path=str(SCREENS / f"{name}.png"))

        # Someone not seated: nothing of the table, whatever they come with.
        eve_frames: list[dict[str, Any]] = []
        watch = door.signed_page("dc:u25", chat, None)
        eve = await open_page(browser, watch, eve_frames)
        pages.append(eve)
        await eve.locator('[data-role="banner"]:not([hidden])').wait_for()
        assert [f["type"] for f in eve_frames] == ["gone"]
        assert await eve.locator("[data-card], [data-seat]").count() == 0
        await eve.screenshot(path=str(SCREENS / "quick_stranger.png"))
        strangers = [  # (credential, the answer of a chat with no table, or a bad link's)
            ("Link " + door.signed_page("dc:u25", chat, 0).split("#", 1)[1], 401),  # a seat's
            ("tma " + init_data(15, TOKEN), 404),  # a Telegram user's Mini App at this table
            ("tma " + init_data(15, TOKEN, start_param=table_param(chat)), 404),
        ]
        nowhere = "Link " + door.signed_page("dc:u25", "q:0000000000", None).split("#", 1)[1]
        async with aiohttp.ClientSession() as session:
            state = f"{door.base}/table/api/state"
            async with session.post(state, headers={"Authorization": nowhere}) as response:
                assert response.status == 404
                no_table = await response.text()
            for proof, status in strangers:
                async with session.post(
                    state, headers={"Authorization": proof}, json={"table": table_param(chat)}
                ) as response:
                    assert response.status == status, proof[:4]
                    if status == 404:
                        assert await response.text() == no_table
            # Each seated player's own credential still opens their seat over HTTP.
            bobs = {"Authorization": "Link " + bob_link.split("#", 1)[1]}
            async with session.post(state, headers=bobs) as response:
                assert response.status == 200
                assert (await response.json())["state"]["you"] == seats["dc:u22"]
        # A stranger pressing "Open table" of this table (a copy of Bob's message) in their
        # own DM: refused, no link.
        forged = copy.deepcopy(message)
        refused = await world._component(EVE, forged, pressed["custom_id"], 2, None)
        assert not refused[0]["data"].get("components")
        assert refused[0]["data"]["content"] == "这个按钮无效。"
    finally:
        for page in pages:
            await page.context.close()
        await telegram.stop()
        await api.stop()
        await world.close()


async def _a_persons_turn(table: Any, clock: FakeClock, seats: dict[str, int | None]) -> str:
    """Let the AI seats play (their time moved on) until a person is to play a card."""
    people = {seat: who for who, seat in seats.items()}
    for _ in range(2000):
        seat = table.hand.to_act
        if seat in people and any(a.act == "play" for a in table.hand.legal_actions(seat)):
            return people[seat]
        if table.deadline is not None:
            clock.now = max(clock.now, table.deadline)
        await asyncio.sleep(0.01)  # the world's timers act on the clock moved
    raise AssertionError("no person came to play")


def _indices(table: Any, seat: int, play: Any) -> list[int]:
    """Positions in the page's hand (the seat's view, in order) of ``play``'s cards."""
    held = [str(c) for c in table.hand.view(seat).hand]
    chosen: list[int] = []
    for token in [str(c) for c in play.cards] or list(play.ranks):
        chosen.append(
            next(
                i
                for i, text in enumerate(held)
                if i not in chosen and token in (text, text if text in ("LJ", "BJ") else text[1:])
            )
        )
    return chosen


def _web_apps(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for b in buttons_of(message) if "web_app" in b]
