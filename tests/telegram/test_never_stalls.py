"""The bot never stops and never stalls: a busy group holds up no private chat, commands for
another bot are left alone, a group that becomes a supergroup keeps its table, a bot removed
from a group closes its table, forged presses seat nobody, and a rejected token ends the
program with one clear line."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from tests.telegram.fake_bot_api import (
    BASIC_GROUPS,
    FakeBotAPI,
    migration_update,
    my_membership_update,
    private_message,
    text_update,
    user,
)
from tests.telegram.test_trust import seated_table
from tests.telegram.world import GROUP, PLAYERS, TelegramWorld, wait_for_group_message
from tests.waiting import eventually

MOVED = "这个群换了新的编号；牌桌也跟着搬过来了。"
NOT_VALID = "这个按钮无效。"
NEWCOMER = 15
FLOOD = 26


def answers_to(world: TelegramWorld, chat_id: int, since: int) -> list[float]:
    """When this server received the bot's messages to ``chat_id`` (its own clock)."""
    return [
        c.at
        for c in world.api.calls[since:]
        if c.method == "sendMessage" and str(c.params.get("chat_id")) == str(chat_id)
    ]


async def test_a_private_start_is_answered_while_another_group_floods_commands(tmp_path):
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"))
    PLAYERS[NEWCOMER] = "Fay"
    try:
        await seated_table(world)
        before = len(world.api.calls)
        flood = [
            world.api.push(text_update(user(11 + n % 4, PLAYERS[11 + n % 4]), GROUP, "/pass"))
            for n in range(FLOOD)
        ]
        start = world.api.push(text_update(user(NEWCOMER, "Fay"), NEWCOMER, "/start"))
        for update_id in [*flood, start]:
            await world.processed(update_id)
        players = [at for p in (11, 12, 13, 14) for at in answers_to(world, p, before)]
        await eventually(lambda: answers_to(world, NEWCOMER, before), what="the greeting")
        greeted = answers_to(world, NEWCOMER, before)[0]
        assert greeted - world.api.pushed_at[start] < 2.0
        assert len(players) >= FLOOD // 2  # the group's commands were answered too …
        earlier = [at for at in players if at < greeted]
        assert len(earlier) < len(players) // 2  # … most of them after the private /start
    finally:
        del PLAYERS[NEWCOMER]
        await world.close()


async def test_a_command_for_another_bot_does_nothing(tmp_path):
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"))
    try:
        before = len(world.api.calls)
        await world.say(11, "/new@OtherBot situan")
        await world.settle()
        assert world.key() not in world.manager.tables
        assert [c for c in world.api.calls[before:] if c.method == "sendMessage"] == []
        await world.say(11, "/new@CardHost_Bot situan")  # this bot's own name (any case)
        assert world.key() in world.manager.tables
    finally:
        await world.close()


async def test_a_group_that_becomes_a_supergroup_keeps_its_table(tmp_path):
    old, new = -4242, -1004242
    BASIC_GROUPS.add(old)
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"))
    try:
        await world.say(11, "/new situan", chat_id=old)
        await world.say(12, "/join", chat_id=old)
        table = world.manager.tables[f"tg:{old}"]
        update_id = world.api.push(migration_update(user(11, "Ann"), old, new))
        await world.processed(update_id)
        assert world.manager.tables[f"tg:{new}"] is table
        assert f"tg:{old}" not in world.manager.tables
        await eventually(lambda: world.api.chat_messages(new), what="the line in the new chat")
        assert [m["text"] for m in world.api.chat_messages(new)] == [MOVED]
        await world.say(13, "/join", chat_id=new)  # the next command there acts on the table
        assert table.seats[2] is not None and table.seats[2].user == "tg:u13"
    finally:
        BASIC_GROUPS.discard(old)
        await world.close()


async def test_a_post_refused_because_the_group_moved_follows_it(tmp_path):
    old, new = -4343, -1004343
    BASIC_GROUPS.add(old)
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"))
    try:
        await world.say(11, "/new situan", chat_id=old)
        await eventually(lambda: world.api.chat_messages(old), what="the lobby")
        world.api.migrated[old] = new  # Telegram answers ChatMigrated from now on
        await world.say(12, "/join", chat_id=old)
        await eventually(lambda: f"tg:{new}" in world.manager.tables, what="the move")

        def texts() -> list[str]:
            return [m["text"] for m in world.api.chat_messages(new)]

        # The refused posts are sent again there, after the one line about the move.
        await eventually(lambda: any("Bob" in text for text in texts()), what="Bob's seat")
        assert texts()[0].startswith(MOVED)
        assert sum(MOVED in text for text in texts()) == 1
    finally:
        BASIC_GROUPS.discard(old)
        await world.close()


async def test_a_bot_removed_from_a_group_closes_its_table(tmp_path):
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"))
    try:
        for status, chat_id in (("kicked", GROUP), ("left", GROUP - 1)):
            await world.say(11, "/new situan", chat_id=chat_id)
            await world.say(12, "/join", chat_id=chat_id)
            key = f"tg:{chat_id}"
            assert world.manager.table_of("tg:u12") == key
            update_id = world.api.push(my_membership_update(chat_id, status, user(11, "Ann")))
            await world.processed(update_id)
            assert key not in world.manager.tables, status
            assert world.manager.table_of("tg:u12") is None  # the seats are free
            assert all(row.chat != key for row in await world.db.open_tables())
    finally:
        await world.close()


async def test_a_forged_press_naming_another_chat_seats_nobody(tmp_path):
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"))
    outsider = 99
    PLAYERS[outsider] = "Eve"
    try:
        await world.say(11, "/new situan")
        lobby = await wait_for_group_message(world, "/join")
        data = next(
            b["callback_data"]
            for row in lobby["reply_markup"]["inline_keyboard"]
            for b in row
            if b.get("callback_data", "").endswith("|/join")
        )
        table = world.manager.tables[world.key()]
        for shown in (private_message(outsider), private_message(-100999)):
            answer = await world.press_data(outsider, shown, data)
            assert answer.get("text") == NOT_VALID
        assert world.manager.table_of(f"tg:u{outsider}") is None
        assert [s.user for s in table.seats if s is not None] == ["tg:u11"]
        # The same data, pressed on the group's own message, does seat the presser.
        answer = await world.press_data(outsider, lobby, data)
        assert world.manager.table_of(f"tg:u{outsider}") == world.key()
    finally:
        del PLAYERS[outsider]
        await world.close()


async def test_an_administrator_may_start_the_hosts_table(tmp_path):
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"))
    try:
        await world.say(11, "/new situan")
        await world.say(12, "/addbot")  # Bob is no administrator: refused
        table = world.manager.tables[world.key()]
        assert sum(s is not None for s in table.seats) == 1
        world.api.admins.add(13)
        await world.say(13, "/addbot")
        assert sum(s is not None for s in table.seats) == 2
        asked = world.api.calls_to("getChatMember", chat_id=GROUP)
        assert {str(c.params["user_id"]) for c in asked} == {"12", "13"}
    finally:
        await world.close()


async def test_a_rejected_token_ends_the_program_with_one_line_and_no_token(tmp_path: Path):
    api = FakeBotAPI(reject_token=True)
    base = await api.start()
    token = "123456:SECRET-token-never-shown"
    env = {**os.environ, "TELEGRAM_BOT_TOKEN": token, "TELEGRAM_API_BASE_URL": base,
           "BOT_DB": str(tmp_path / "bot.sqlite3")}  # fmt: skip
    env.pop("DISCORD_BOT_TOKEN", None)
    try:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=Path(__file__).parents[2],
        )
        out, err = await asyncio.wait_for(process.communicate(), timeout=60)
    finally:
        await api.stop()
    assert process.returncode not in (0, None)
    lines = err.decode().strip().splitlines()
    assert len(lines) == 1, lines
    assert "token" in lines[0] and "Traceback" not in lines[0]
    for part in (token, "SECRET-token-never-shown", "123456"):
        assert part not in err.decode() + out.decode()
    assert api.calls_to("getMe")
