"""Who a page is: a Mini App's initData checked as Telegram documents it, the bot's signed
links; anything forged, expired or not this seat's gets 401 and no data from the server."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from adapters.web.auth import Denied, LinkSigner, check_init_data, telegram_visitor
from adapters.web.links import chat_of_param, direct_link, mini_app_url, table_param
from storage import Database
from tests.web.world import TOKEN, World, init_data


def test_an_init_data_signed_with_the_bot_token_names_its_user_and_table():
    param = table_param("tg:-1001234567890:42")
    assert (
        param is not None and len(param) <= 64 and param.replace("_", "").replace("-", "").isalnum()
    )
    visitor = telegram_visitor(init_data(77, start_param=param, language="zh-hans"), TOKEN, None)
    assert (visitor.user, visitor.chat, visitor.seat) == ("tg:u77", "tg:-1001234567890:42", None)
    assert visitor.lang == "zh-hans" and visitor.name == "Ann"


BAD_INIT_DATA = {
    "another bot's token": lambda: init_data(77, token="999:another-bot"),
    "a field changed after signing": lambda: init_data(77).replace("Ann", "Bob"),
    "expired": lambda: init_data(77, auth_date=time.time() - 2 * 86_400),
    "from the future": lambda: init_data(77, auth_date=time.time() + 3600),
    "no hash": lambda: init_data(77).replace("hash=", "hush="),
    "empty": lambda: "",
    "a field twice": lambda: "user=%7B%7D&user=%7B%7D",
}


@pytest.mark.parametrize("why", sorted(BAD_INIT_DATA))
def test_a_forged_or_stale_init_data_is_refused(why: str):
    with pytest.raises(Denied):
        check_init_data(BAD_INIT_DATA[why](), TOKEN)


def test_a_link_is_signed_for_one_user_table_and_seat_and_expires():
    clock = [1000.0]
    signer = LinkSigner(b"k" * 32, clock=lambda: clock[0])
    token = signer.sign("dc:u5", "dc:c9", 2, seconds=60)
    assert signer.check(token).seat == 2 and signer.check(token).user == "dc:u5"
    _, mac = token.split(".")
    other = signer.sign("dc:u6", "dc:c9", 2, seconds=60).split(".")[0]
    with pytest.raises(Denied):
        signer.check(f"{other}.{mac}")  # another user's payload under this signature
    with pytest.raises(Denied):
        LinkSigner(b"x" * 32).check(token)  # another key
    clock[0] += 61
    with pytest.raises(Denied):
        signer.check(token)


def test_the_links_name_the_table_in_what_telegram_takes():
    chat = "tg:-1001234567890"
    assert chat_of_param(table_param(chat) or "") == chat
    assert chat_of_param("not base64!") is None
    assert mini_app_url("https://cards.example", chat) == (
        f"https://cards.example/table?t={table_param(chat)}"
    )
    assert direct_link("CardBot", "table", chat) == (
        f"https://t.me/CardBot/table?startapp={table_param(chat)}"
    )


async def post(world: World, path: str, authorization: str, body: dict[str, Any]) -> Any:
    async with aiohttp.ClientSession() as session:
        headers = {"Authorization": authorization}
        async with session.post(world.base + path, json=body, headers=headers) as answer:
            return answer.status, await answer.text()


async def test_the_http_endpoints_answer_401_and_no_data_to_bad_credentials(tmp_path: Path):
    db = await Database.open(str(tmp_path / "web.sqlite3"))
    world = await World.open(db, "situan", "en", telegram=True)
    try:
        param = table_param(world.chat)
        good = init_data(501)
        status, text = await post(world, "/table/api/state", f"tma {good}", {"table": param})
        assert status == 200 and '"you": 0' in text
        held = [str(c) for c in world.table.hand.view(0).hand]
        assert all(card in text for card in held)
        bad = {
            "forged": f"tma {init_data(501, token='1:wrong')}",
            "expired": f"tma {init_data(501, auth_date=time.time() - 3 * 86_400)}",
            "none": "",
            "a link of another key": "Link " + LinkSigner().sign("tg:u501", world.chat, 0),
            "a link for a seat not theirs": "Link "
            + world.web.signer.sign("tg:u502", world.chat, 0),
        }
        for why, authorization in bad.items():
            for path in ("/table/api/state", "/table/api/check", "/table/api/act"):
                body = {"table": param, "action": "pass", "cards": held[:1]}
                status, text = await post(world, path, authorization, body)
                assert status == 401, (why, path)
                assert not any(card in text for card in held) and "state" not in text
        # A good credential that opens nothing here is told what a chat with no table tells:
        # one answer, so that no one learns from it whether a chat has a table.
        stranger = f"tma {init_data(504)}"  # neither seated nor let watch
        nowhere = table_param("tg:-100999")  # no table there
        for path in ("/table/api/state", "/table/api/check", "/table/api/act"):
            body = {"table": param, "action": "pass", "cards": held[:1]}
            not_yours = await post(world, path, stranger, body)
            no_table = await post(world, path, stranger, {**body, "table": nowhere})
            assert not_yours == no_table == (404, '{"error": "no table"}'), path
        moves = world.table.turn_count
        status, _ = await post(world, "/table/api/act", bad["forged"], {"action": "auto"})
        assert status == 401 and world.table.turn_count == moves
    finally:
        await world.close()
        await db.close()


async def test_an_action_through_http_is_a_command_with_the_players_refusals(tmp_path: Path):
    db = await Database.open(str(tmp_path / "web.sqlite3"))
    world = await World.open(db, "situan", "en", telegram=False)
    try:
        link = "Link " + world.link(0).split("#")[1]
        held = [str(c) for c in world.table.hand.view(0).hand]
        ranks = {card[1:] if card not in ("LJ", "BJ") else card for card in held}
        status, text = await post(
            world, "/table/api/check", link, {"action": "play", "cards": [held[0], held[-1]]}
        )
        assert status == 200 and '"ok": false' in text and "not a valid play" in text
        moves = world.table.turn_count
        status, text = await post(
            world, "/table/api/act", link, {"action": "play", "args": [held[0], held[-1]]}
        )
        assert status == 200 and "not a valid play" in text and world.table.turn_count == moves
        assert len(ranks) > 1
    finally:
        await world.close()
        await db.close()


def test_the_web_settings_are_read_in_one_place_and_a_bad_one_says_so():
    from adapters.web.settings import WebSettings
    from bot.ops.config import StartupError, load

    assert WebSettings.from_settings(load({})) is None  # no WEB_PUBLIC_URL: no web table
    given = {"WEB_PUBLIC_URL": "https://cards.example/", "WEB_PORT": "9000",
             "WEB_LINK_SECRET": "s" * 20}  # fmt: skip
    read = WebSettings.from_settings(load(given))
    assert read is not None and read.public_url == "https://cards.example" and read.port == 9000
    assert read.link_secret == b"s" * 20
    # A page holds its WebSocket: the web door's total is WEB_CONNECTIONS (1,000 unless set),
    # not the webhook's 100, and behind a proxy both caps are set alike.
    assert read.limits.max_connections == 1000 and read.limits.per_address == 16
    behind_proxy = {**given, "WEB_CONNECTIONS": "3000", "WEB_PER_ADDRESS": "3000"}
    proxied = WebSettings.from_settings(load(behind_proxy))
    assert proxied is not None and proxied.limits.max_connections == 3000
    assert proxied.limits.per_address == 3000
    url = "https://a.example"
    bad_ones = [{"WEB_PUBLIC_URL": "http://cards.example"},
                {"WEB_PUBLIC_URL": url, "WEB_PORT": "0"},
                {"WEB_PUBLIC_URL": url, "WEB_LINK_SECRET": "short"},
                {"WEB_PUBLIC_URL": url, "WEB_LINK_SECONDS": "never"}]  # fmt: skip
    for bad in bad_ones:
        with pytest.raises(StartupError):
            load(bad)
