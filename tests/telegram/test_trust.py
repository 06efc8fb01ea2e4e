"""Who may press what: deep-link joins, stale, foreign, repeated and malformed presses, game
commands typed in the group, Bot API errors, and buttons that still work after a restart."""

from __future__ import annotations

import asyncio
import copy
import json
from pathlib import Path

from adapters.telegram.keyboards import read_start_payload
from engine.replay import replay_record
from tests.telegram.fake_bot_api import BOT_USERNAME, private_message
from tests.telegram.world import (
    GROUP,
    PLAYERS,
    TelegramWorld,
    button_data,
    buttons_of,
    play_turn,
    wait_for_group_message,
)
from tests.waiting import eventually

STALE = "这个按钮已过期：牌局已经往下进行了。"


async def seated_table(
    world: TelegramWorld,
    game: str = "situan",
    *,
    dee_opened: bool = True,
    never_opened: int | None = None,
):
    for user_id in PLAYERS:
        if (user_id != 14 or dee_opened) and user_id != never_opened:
            await world.say(user_id, "/start", chat_id=user_id)
    await world.say(11, f"/new {game}")
    for user_id in (12, 13, 14):
        await world.say(user_id, "/join")
    await world.say(11, "/start")
    return world.manager.tables[world.key()]


def sent_to(world: TelegramWorld, chat_id: int, since: int = 0) -> list[str]:
    """Texts sent or edited in a chat, a photo's caption included (the private hand)."""
    return [
        str(c.params.get("text") or c.params.get("caption") or "")
        for c in world.api.calls[since:]
        if c.method in ("sendMessage", "editMessageText", "sendPhoto", "editMessageCaption")
        and str(c.params.get("chat_id")) == str(chat_id)
    ]


async def group_text_containing(world: TelegramWorld, needle: str) -> dict:
    for _ in range(300):
        for message in world.group_messages():
            if needle in message["text"]:
                return message
        await asyncio.sleep(0.01)
    raise AssertionError(f"the group never saw {needle!r}")


async def test_a_player_who_never_opened_the_bot_gets_a_deep_link_and_then_the_hand(tmp_path):
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"), never_opened={14})
    try:
        table = await seated_table(world, dee_opened=False)
        notice = await group_text_containing(world, "Dee：请先打开和机器人的私聊")
        links = [b["url"] for b in buttons_of(notice) if "url" in b]
        assert links and links[0].startswith(f"https://t.me/{BOT_USERNAME}?start=")
        payload = links[0].split("?start=")[1]
        assert read_start_payload(payload) == world.key()
        assert world.api.calls_to("sendPhoto", chat_id=14)  # tried, and refused (403) …
        assert world.api.chat_messages(14) == []  # … as Telegram does
        world.api.never_opened.clear()  # Dee taps the link: Telegram opens the private chat
        before = len(world.api.calls)
        await world.say(14, f"/start {payload}", chat_id=14)
        texts = sent_to(world, 14, before)
        assert texts[0] == "你好！你的牌会发到这里。"
        assert texts[1].startswith("你在「Card room」的手牌（四团，4 号座位）")
        assert world.hand_message(14)  # with its keyboard
        assert table.seats[3].user == "tg:u14"
        assert "tg:u14" in await world.db.reachable_users("tg:")  # remembered across restarts
    finally:
        await world.close()


async def test_stale_repeated_foreign_and_malformed_presses_change_nothing(tmp_path):
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"))
    try:
        table = await seated_table(world, "erqiwang")
        seat = table.hand.to_act
        user_id = 11 + seat
        old = copy.deepcopy(world.hand_message(user_id))
        bid = f"/bid {table.hand.allowed_bids()[-1]}"
        first = await world.press(user_id, old, bid)
        assert not first.get("text")
        bids = list(table.hand.bids)
        # The same button again (a double tap): refused with an alert, nothing changes.
        again = await world.press(user_id, old, bid)
        assert again["text"] == STALE and again["show_alert"] in (True, "true", "True")
        assert table.hand.bids == bids
        # A player who has no seat presses the table's "My hand".
        world_table_message = await wait_for_group_message(world, "/hand")
        stranger = 99
        PLAYERS[stranger] = "Eve"
        try:
            answer = await world.press(stranger, world_table_message, "/hand")
        finally:
            del PLAYERS[stranger]
        assert answer["text"] == "你现在没有牌。"
        assert world.api.calls_to("sendMessage", chat_id=stranger) == []
        # Made-up callback data: refused, never applied.
        message = world.hand_message(11 + table.hand.to_act)
        for data in ("garbage", "x|y|z", f"{GROUP}|{table.tag}.1|/bid", "|||", ""):
            answer = await world.press_data(12, message, data)
            assert answer.get("text"), data
        assert table.hand.bids == bids
    finally:
        await world.close()


async def test_a_play_typed_in_the_group_is_deleted_and_answered_privately(tmp_path):
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"))
    try:
        table = await seated_table(world)
        seat = table.hand.to_act
        outsider = 11 + (seat + 1) % 4  # not their turn
        before = len(world.api.calls)
        await world.say(outsider, "/play 3")
        # The deletion waits for the group's posts (it is paced like them), in the background.
        await eventually(lambda: world.api.calls_to("deleteMessage"), what="the deletion")
        deleted = [c for c in world.api.calls[before:] if c.method == "deleteMessage"]
        assert [str(c.params["chat_id"]) for c in deleted] == [str(GROUP)]
        assert sent_to(world, outsider, before) == ["现在轮到 Ann，不是你。"]
        assert not [t for t in sent_to(world, GROUP, before) if "没轮到" in t]
    finally:
        await world.close()


async def test_rate_limits_and_failed_polls_are_retried_not_fatal(tmp_path):
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"))
    try:
        world.api.fail_next["getUpdates"] = 2  # two polls answered 429
        for _ in range(1000):
            if world.api.fail_next["getUpdates"] == 0:
                break
            await asyncio.sleep(0.01)
        world.api.fail_next["sendMessage"] = 1  # and the next message too
        await world.say(11, "/start", chat_id=11)  # updates still flow
        assert [m["text"] for m in world.api.chat_messages(11)] == ["你好！你的牌会发到这里。"]
        assert len(world.api.calls_to("sendMessage", chat_id=11)) == 2  # a 429, then sent
    finally:
        await world.close()


async def test_export_sends_the_last_hand_as_a_replayable_document(tmp_path):
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"))
    try:
        table = await seated_table(world, "erqiwang")
        await world.say(11, "/settings max_hands 1")
        while table.state == "playing":
            await play_turn(world, world.key())
        await world.say(12, "/export")
        documents = world.api.calls_to("sendDocument", chat_id=12)
        assert len(documents) == 1
        record = json.loads(documents[0].params["document"]["body"])
        stored = (await world.db.hands_of(world.key()))[-1]
        output = replay_record(record)
        assert output["over"] and output["result"] == stored.result
        assert all(step["ok"] for step in output["actions"])
    finally:
        await world.close()


async def test_buttons_sent_before_a_restart_still_work_after_it(tmp_path: Path):
    path = str(tmp_path / "tg.sqlite3")
    world = await TelegramWorld.open(path)
    try:
        table = await seated_table(world)
        seat = table.hand.to_act
        user_id = 11 + seat
        message = copy.deepcopy(world.hand_message(user_id))
        held = table.hand.cards_of(seat)
    finally:
        await world.close()
    world = await TelegramWorld.open(path)
    try:
        restored = world.manager.tables[world.key()]
        assert restored.hand.cards_of(seat) == held
        await group_text_containing(world, "重启")
        rank = held[0].rank
        answer = await world.press(user_id, message, f"/pick {rank}")
        assert not answer.get("text")
        assert button_data(world.hand_message(user_id), f"/pick {rank} 1")
    finally:
        await world.close()


async def test_menus_come_in_every_language_and_a_chat_set_to_traditional_gets_its_own(tmp_path):
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"))
    try:
        menus = {
            c.params.get("language_code"): c.params["commands"]
            for c in world.api.calls_to("setMyCommands")
        }
        assert set(menus) == {None, "zh", "en"}
        assert {"command": "play", "description": "出牌，例如 /play 7777"} in menus["zh"]
        assert {"command": "play", "description": "Play cards, e.g. /play 7777"} in menus["en"]
        await world.say(11, "/new situan")
        await world.say(11, "/lang zh-Hant")
        scoped = [c for c in world.api.calls_to("setMyCommands") if c.params.get("scope")]
        assert json.loads(scoped[-1].params["scope"]) == {"type": "chat", "chat_id": GROUP}
        commands = scoped[-1].params["commands"]
        assert {
            "command": "bury",
            "description": "埋底：埋掉不要的牌（8 張；一副牌時 6 張）",
        } in commands
    finally:
        await world.close()


async def test_a_refused_play_of_a_player_who_never_opened_the_bot_stays_out_of_the_group(
    tmp_path,
):
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"), never_opened={12})
    try:
        table = await seated_table(world, never_opened=12)
        assert table.seats[1].user == "tg:u12"
        before = len(world.api.calls)
        await world.say(12, "/play 3 3 3 3 3 3 3 3 3 3 3 3 3")  # refused: not held, not the turn
        await eventually(lambda: world.adapter.outbox.paced_out() and world.adapter.outbox.idle())
        answers = [t for t in sent_to(world, GROUP, before) if t.startswith("Bob: ")]
        assert answers == []  # no answer about Bob's cards in the group (only "open the bot")
        # His hand was tried privately at the deal (refused: 403); the answer to his play is
        # not tried again while he cannot be reached, and never goes to the group.
        assert world.api.calls_to("sendPhoto", chat_id=12)
        assert [c for c in world.api.calls[before:] if str(c.params.get("chat_id")) == "12"] == []
    finally:
        await world.close()


async def test_a_former_host_cannot_reopen_the_table_from_a_private_chat(tmp_path):
    """Issue 38, item 3: a closed table keeps its seats, but they give no rights — a forged
    ``/new`` press from the former host's private chat opens nothing and posts nothing."""
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"))
    try:
        await world.say(11, "/start", chat_id=11)
        await world.say(11, "/new erqiwang")
        await world.say(12, "/join")
        table = world.manager.tables[world.key()]
        stamp = table.stamp().text()
        await world.say(11, "/stop")
        assert table.state == "closed" and table.seat_of("tg:u11") is not None
        assert not world.manager.is_seated(world.key(), "tg:u11")
        await eventually(lambda: world.adapter.outbox.paced_out() and world.adapter.outbox.idle())
        before = len(world.api.calls)
        answer = await world.press_data(11, private_message(11), f"{GROUP}|{stamp}|/new erqiwang")
        assert answer.get("text") == "这个按钮无效。"
        assert world.manager.tables.get(world.key()) is None  # no table opened (the closed
        assert table.state == "closed"  # one left memory when its closing step was stored)
        assert [c for c in world.api.calls[before:] if c in world.group_calls()] == []
    finally:
        await world.close()


async def test_a_seated_player_may_press_only_their_own_hands_controls_in_private(tmp_path):
    """From a private chat a seated player's press may act on their own hand (the buttons
    of their private hand: commands about their own cards), never on the lobby or the match."""
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"))
    try:
        table = await seated_table(world, "erqiwang")
        assert table.state == "playing"
        stamp = table.stamp().text()
        await eventually(lambda: world.adapter.outbox.paced_out() and world.adapter.outbox.idle())
        before = len(world.api.calls)
        for command in ("/stop", "/addbot", "/new situan", "/settings max_hands 1", "/kick 1"):
            answer = await world.press_data(11, private_message(11), f"{GROUP}|{stamp}|{command}")
            assert answer.get("text") == "这个按钮无效。", command
        assert table.state == "playing" and table.table_options.max_hands != 1
        assert [c for c in world.api.calls[before:] if c in world.group_calls()] == []
        # The hand's own button still works from the private chat.
        answer = await world.press_data(11, private_message(11), f"{GROUP}|{stamp}|/hand")
        assert answer.get("text") != "这个按钮无效。"
    finally:
        await world.close()
