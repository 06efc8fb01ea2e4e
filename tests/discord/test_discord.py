"""Discord through real discord.py against the fake gateway + REST server: whole matches by
slash commands and component clicks, hands by DM or (DMs closed) by ephemeral view, stale,
foreign and repeated clicks, a restart between two actions, and channel privacy."""

from __future__ import annotations

import asyncio
import copy
import re
from pathlib import Path

import pytest

from adapters.discord.components import channel_key
from bot.table.state import CLOSED
from engine.situan.combos import RANKS
from tests.call_windows import calls_per_window
from tests.discord.fake_discord import CHANNEL_ID, THREAD_ID
from tests.discord.world import DiscordWorld, presses_for
from tests.waiting import eventually

STALE = "这个按钮已过期：牌局已经往下进行了。"


async def lobby_message(world: DiscordWorld, channel: str = CHANNEL_ID) -> dict:
    for _ in range(300):
        for message in reversed(world.fake.channel_messages(channel)):
            if any(
                c["custom_id"].endswith("|/join")
                for row in message["components"]
                for c in row["components"]
            ):
                return message
        await asyncio.sleep(0.01)
    raise AssertionError("no lobby message")


async def seated(world: DiscordWorld, game: str, channel: str = CHANNEL_ID, hands: int = 1) -> str:
    await world.slash("21", "new", channel_id=channel, game=game)
    await world.slash("21", "settings", channel_id=channel, name="max_hands", value=str(hands))
    lobby = await lobby_message(world, channel)
    for member in ("22", "23", "24"):
        answer = await world.click(member, lobby, "/join")
        assert answer[0]["type"] == 6  # a quiet acknowledgement: the channel shows the seat
    await world.click("21", lobby, "/start")
    return world.key(channel)


async def with_button(world: DiscordWorld, command: str) -> dict:
    """The latest channel message with a button sending ``command`` (waiting for pacing)."""
    for _ in range(500):
        for message in reversed(world.fake.channel_messages(CHANNEL_ID)):
            ids = [c["custom_id"] for row in message["components"] for c in row["components"]]
            if any(i.endswith("|" + command) for i in ids):
                return message
        await asyncio.sleep(0.01)
    raise AssertionError(f"no channel message with {command}")


def actor(world: DiscordWorld, key: str) -> str:
    table = world.manager.tables[key]
    seat = table.hand.to_act
    return table.seats[seat].user.removeprefix("dc:u")


async def take_turn(world: DiscordWorld, key: str) -> None:
    table = world.manager.tables[key]
    member = actor(world, key)
    for command in presses_for(table):
        answer = await world.click(member, world.hand_message(member), command)
        assert answer[0]["type"] == 7, (command, answer)  # the hand message itself is updated
        assert "已过期" not in str(answer)


def channel_texts(world: DiscordWorld, channel: str = CHANNEL_ID) -> list[str]:
    texts = []
    for call in world.channel_calls(channel):
        body = call.body if isinstance(call.body, dict) else {}
        texts.append(str(body.get("content", "")))
    return texts


def assert_no_hand_in_the_channel(world: DiscordWorld, channel: str = CHANNEL_ID) -> None:
    holdings = set()
    for message in world.fake.messages.values():
        first = message["content"].split("\n")[0]
        if "手牌" in first and "：" in first:
            holdings.add(first.split("：", 1)[1])
    assert holdings
    for text in channel_texts(world, channel):
        assert "手牌" not in text
        assert not any(h in text for h in holdings if len(h) > 6)
    public = [m for m in world.fake.channel_messages(channel) if not m["flags"] & 64]
    assert not any("手牌" in m["content"] for m in public)


def assert_within_budget(world: DiscordWorld, channel: str = CHANNEL_ID) -> None:
    """Discord's own limit for a channel — 5 messages (posts or edits) in any 5 s — as the
    host counted its calls, and every call the fake received was one of them."""
    counted = [
        at for key, at in world.adapter.outbox.group_calls_made if key == channel_key(int(channel))
    ]
    assert len(counted) == len(world.channel_calls(channel)) > 5
    assert max(calls_per_window(counted, 5.0)) <= 5


@pytest.mark.parametrize("game", ["situan", "erqiwang"])
async def test_a_whole_match_by_slash_commands_and_clicks(tmp_path: Path, game: str):
    world = await DiscordWorld.open(str(tmp_path / "dc.sqlite3"))
    try:
        key = await seated(world, game)
        table = world.manager.tables[key]
        turns = 0
        while table.state != CLOSED:
            if turns % 9 == 4 and table.game == "erqiwang" and table.hand.phase == "play":
                play = " ".join(c.text for c in table.hand.legal_plays()[0])
                answer = await world.slash(actor(world, key), "play", channel_id=None, cards=play)
                assert answer[0]["data"]["content"] == "好的。"
            else:
                await take_turn(world, key)
            turns += 1
            assert turns < 3000
        await eventually(lambda: any("本场结束" in text for text in channel_texts(world)))
        assert_no_hand_in_the_channel(world)
        assert_within_budget(world)
    finally:
        await world.close()


async def test_a_member_with_closed_dms_plays_from_an_ephemeral_view(tmp_path: Path):
    world = await DiscordWorld.open(str(tmp_path / "dc.sqlite3"), closed_dms={"24"})
    try:
        key = await seated(world, "erqiwang")
        await eventually(lambda: any("Dee：你关闭了私信" in t for t in channel_texts(world)))
        table_message = await with_button(world, "/hand")
        answer = await world.click("24", table_message, "/hand")
        assert answer[0]["type"] == 4 and answer[0]["data"]["flags"] == 64
        hand = answer[0]["data"]["content"]
        assert hand.startswith("你在「Card room #cards」的手牌（二七王，4 号座位）")
        table = world.manager.tables[key]
        dee_turns = 0
        while dee_turns < 3 and table.state != CLOSED:
            member = actor(world, key)
            if member == "24":
                for command in presses_for(table):
                    answer = await world.click("24", world.hand_message("24"), command)
                    assert answer[0]["type"] == 7  # the ephemeral view itself is updated
                dee_turns += 1
            else:
                await take_turn(world, key)
        refreshed = [c for c in world.fake.calls if c.path.endswith("@original")]
        assert refreshed  # the open ephemeral view was kept current
        assert world.fake.dm_channels.get("24") is None or not [
            m
            for m in world.fake.messages.values()
            if m["channel_id"] == world.fake.dm_channels["24"]
        ]
        assert_no_hand_in_the_channel(world)
    finally:
        await world.close()


async def test_stale_foreign_and_repeated_clicks_change_nothing(tmp_path: Path):
    world = await DiscordWorld.open(str(tmp_path / "dc.sqlite3"))
    try:
        key = await seated(world, "erqiwang")
        table = world.manager.tables[key]
        member = actor(world, key)
        old = copy.deepcopy(world.hand_message(member))
        bid = f"/bid {table.hand.allowed_bids()[0]}"  # the least ambitious: bidding goes on
        await world.click(member, old, bid)
        bids = list(table.hand.bids)
        again = await world.click(member, old, bid)
        assert again[0]["type"] == 4 and again[0]["data"]["flags"] == 64
        assert again[0]["data"]["content"] == STALE
        waiting = next(m for m in ("21", "22", "23", "24") if m != actor(world, key))
        other = await world.click(waiting, world.hand_message(actor(world, key)), "/pass")
        assert other[0]["data"] == {
            "tts": False,
            "content": "现在轮到 Bob，不是你。",
            "flags": 64,
            "allowed_mentions": {"parse": []},
        }
        assert table.hand.bids == bids
        table_message = await with_button(world, "/hand")
        eve = await world.click("25", table_message, "/hand")
        assert eve[0]["data"]["content"] == "你现在没有牌。" and eve[0]["data"]["flags"] == 64
        assert table.hand.bids == bids
    finally:
        await world.close()


async def test_buttons_work_after_a_restart_between_two_actions(tmp_path: Path):
    path = str(tmp_path / "dc.sqlite3")
    world = await DiscordWorld.open(path)
    try:
        key = await seated(world, "situan")
        member = actor(world, key)
        message = copy.deepcopy(world.hand_message(member))
        table = world.manager.tables[key]
        rank = table.hand.cards_of(table.hand.to_act)[0].rank
    finally:
        await world.close()
    world = await DiscordWorld.open(path)
    try:
        answer = await world.click(member, message, f"/pick {rank}")
        assert answer[0]["type"] == 7
        assert f"/pick {rank} 1" in str(answer[0]["data"]["components"])
    finally:
        await world.close()


async def test_a_thread_has_its_own_table(tmp_path: Path):
    world = await DiscordWorld.open(str(tmp_path / "dc.sqlite3"))
    try:
        await world.slash("21", "new", channel_id=THREAD_ID, game="situan")
        assert world.key(THREAD_ID) in world.manager.tables
        assert world.key(CHANNEL_ID) not in world.manager.tables
        await eventually(lambda: world.fake.channel_messages(THREAD_ID))
        assert not [m for m in world.fake.channel_messages(CHANNEL_ID) if not m["flags"] & 64]
    finally:
        await world.close()


async def test_slash_commands_are_synced_with_chinese_names_and_choices(tmp_path: Path):
    world = await DiscordWorld.open(str(tmp_path / "dc.sqlite3"))
    try:
        synced = next(c.body for c in world.fake.calls if c.path.endswith("/commands"))
        by_name = {c["name"]: c for c in synced}
        assert by_name["play"]["name_localizations"]["zh-CN"] == "出牌"
        assert by_name["play"]["name_localizations"]["zh-TW"] == "出牌"
        assert (
            by_name["bury"]["description_localizations"]["zh-TW"]
            == "埋底：埋掉不要的牌（8 張；一副牌時 6 張）"
        )
        trump = by_name["trump"]["options"][0]
        assert [c["value"] for c in trump["choices"]] == ["S", "H", "C", "D", "none"]
        assert {"new", "join", "play", "pass", "bid", "trump", "bury", "auto", "hand"} <= set(
            by_name
        )
    finally:
        await world.close()


async def test_cards_autocomplete_from_the_players_own_hand(tmp_path: Path):
    world = await DiscordWorld.open(str(tmp_path / "dc.sqlite3"))
    try:
        key = await seated(world, "situan")
        table = world.manager.tables[key]
        member = actor(world, key)
        payload = world._base(member, CHANNEL_ID, 4)
        payload["data"] = {"id": "1", "name": "play", "type": 1,
                           "options": [{"name": "cards", "type": 3, "value": "",
                                        "focused": True}]}  # fmt: skip
        answer = await world._answered(payload)
        assert answer[0]["type"] == 8
        offered = [c["value"] for c in answer[0]["data"]["choices"]]
        legal = {"".join(RANKS[r] for r in p.ranks) for p in table.hand.legal_plays()}
        assert offered and set(offered) <= legal and len(offered) <= 25
        # Shown as the hand shows them, by rank and count: "7×4", not "7777".
        shown = {c["value"]: c["name"] for c in answer[0]["data"]["choices"]}
        for value, name in shown.items():
            ranks = re.findall(r"10|LJ|BJ|[2-9JQKA]", value)
            rank = (
                ranks[0] if ranks[0] not in ("LJ", "BJ") else {"LJ": "小王", "BJ": "大王"}[ranks[0]]
            )
            assert name == (rank if len(ranks) == 1 else f"{rank}×{len(ranks)}"), (value, name)
        waiting = next(m for m in ("21", "22", "23", "24") if m != member)
        payload = world._base(waiting, CHANNEL_ID, 4)
        payload["data"] = {"id": "1", "name": "play", "type": 1,
                           "options": [{"name": "cards", "type": 3, "value": "",
                                        "focused": True}]}  # fmt: skip
        answer = await world._answered(payload)
        mine = {c.text for c in table.hand.cards_of(table.seat_of(f"dc:u{waiting}"))}
        offered = {c["value"] for c in answer[0]["data"]["choices"]}
        assert offered and offered <= mine  # not their turn: their own cards, nobody else's
    finally:
        await world.close()


async def test_presets_autocomplete_for_the_chosen_game(tmp_path: Path):
    world = await DiscordWorld.open(str(tmp_path / "dc.sqlite3"))
    try:
        payload = world._base("21", CHANNEL_ID, 4)
        payload["data"] = {"id": "1", "name": "new", "type": 1, "options": [
            {"name": "game", "type": 3, "value": "erqiwang"},
            {"name": "preset", "type": 3, "value": "o", "focused": True}]}  # fmt: skip
        answer = await world._answered(payload)
        assert [c["value"] for c in answer[0]["data"]["choices"]] == ["online", "one_deck"]
    finally:
        await world.close()


async def test_a_member_at_two_tables_is_asked_which_with_a_button_per_table(tmp_path: Path):
    """Issue 12, item 6: seated in the channel's table and the thread's, a member's DM slash
    command names no table: the answer lists both, with a button each that shows that
    table's hand; /play in a DM takes ``@2`` before the cards."""
    world = await DiscordWorld.open(str(tmp_path / "dc.sqlite3"))
    try:
        for channel in (CHANNEL_ID, THREAD_ID):
            await world.slash("21", "new", channel_id=channel, game="situan")
        before = len(world.manager.tables)
        answer = await world.slash("21", "settings", channel_id=None)
        data = answer[-1]["data"]
        assert data["flags"] == 64 and "你同时坐在几张牌桌上" in data["content"]
        assert "@1 · Card room #cards" in data["content"]
        assert "@2 · Card room #hand-talk" in data["content"]
        buttons = [c for row in data["components"] for c in row["components"]]
        assert [b["custom_id"].split("|")[1] for b in buttons] == [CHANNEL_ID, THREAD_ID]
        assert all(b["custom_id"].endswith("|/hand") for b in buttons)
        assert len(world.manager.tables) == before  # asked, nothing done
        answer = await world.slash("21", "play", channel_id=None, cards="@2 3")
        reply = answer[-1]["data"]["content"]
        assert reply.startswith("「Card room #hand-talk」：")  # the reply names the table
    finally:
        await world.close()


async def test_a_press_by_dm_naming_a_channels_table_seats_nobody(tmp_path: Path):
    """Issue 38, item 6: a press acts on the channel its message is in; from a DM only on
    the presser's own hand at a table where they sit — a DM press whose custom id names the
    channel's lobby does not seat the member there, nor start the match."""
    world = await DiscordWorld.open(str(tmp_path / "dc.sqlite3"))
    try:
        await world.slash("21", "new", game="situan")
        await world.click("22", await lobby_message(world), "/join")
        table = world.manager.tables[world.key()]
        lobby = copy.deepcopy(await lobby_message(world))
        for member in ("25", "21"):  # Eve, never seated; Ann, the host, seated there
            dm = world.fake.dm_channels.setdefault(member, world.fake.next_id())
            forged = {**lobby, "id": world.fake.next_id(), "channel_id": dm}
            for command in ("/join", "/addbot", "/start"):
                answer = await world.click(member, forged, command)
                assert answer[0]["type"] == 4 and answer[0]["data"]["flags"] == 64, command
                assert answer[0]["data"]["content"] == "这个按钮无效。", command
        assert [s.user for s in table.seats if s is not None] == ["dc:u21", "dc:u22"]
        assert table.state == "lobby"
        # The same button on the channel's own message does seat Eve.
        await world.click("25", lobby, "/join")
        assert table.seat_of("dc:u25") is not None
    finally:
        await world.close()


async def test_a_press_naming_another_channels_table_acts_nowhere(tmp_path: Path):
    """A button copied onto a message of another channel (the thread) acts on neither."""
    world = await DiscordWorld.open(str(tmp_path / "dc.sqlite3"))
    try:
        await world.slash("21", "new", game="situan")
        table = world.manager.tables[world.key()]
        lobby = copy.deepcopy(await lobby_message(world))
        forged = {**lobby, "id": world.fake.next_id(), "channel_id": THREAD_ID}
        answer = await world.click("25", forged, "/join")
        assert answer[0]["data"]["content"] == "这个按钮无效。"
        assert table.seat_of("dc:u25") is None
        assert world.key(THREAD_ID) not in world.manager.tables
    finally:
        await world.close()


async def test_an_interaction_delivered_twice_is_handled_once(tmp_path: Path):
    """Issue 38, item 4: the same /addbot interaction (same id) delivered twice seats one AI
    player, also after a restart between the two; the copy gets no second response."""
    path = str(tmp_path / "dc.sqlite3")
    world = await DiscordWorld.open(path)
    try:
        await world.slash("21", "new", game="situan")
        addbot = world.slash_payload("21", "addbot")
        await world._answered(copy.deepcopy(addbot))
        await world.fake.interact(copy.deepcopy(addbot))
        await eventually(lambda: world.adapter.duplicates == 1, what="the copy dropped")
        table = world.manager.tables[world.key()]
        assert sum(s is not None and s.ai for s in table.seats) == 1
        assert len(world.fake.callbacks(addbot["id"])) == 1
    finally:
        await world.close()
    world = await DiscordWorld.open(path)
    try:
        await world.fake.interact(copy.deepcopy(addbot))
        await eventually(lambda: world.adapter.duplicates == 1, what="the copy dropped")
        table = world.manager.tables[world.key()]
        assert sum(s is not None and s.ai for s in table.seats) == 1
        assert world.fake.callbacks(addbot["id"]) == []
    finally:
        await world.close()
