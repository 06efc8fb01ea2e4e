"""Discord never says "interaction failed": a slow answer is deferred in time and follows;
nothing the bot posts mentions anyone; intents are few; commands are synced only when they
changed."""

from __future__ import annotations

from pathlib import Path

import discord

from adapters.discord.app import DEFER_AFTER
from tests.discord.test_discord import lobby_message
from tests.discord.world import DiscordWorld
from tests.waiting import eventually

DEFERRED = (5, 6)


def callback_types(world: DiscordWorld, interaction_id: str) -> list[int]:
    return [
        c.body.get("type")
        for c in world.fake.callbacks(interaction_id)
        if c.path.endswith("/callback")
    ]


def original_edits(world: DiscordWorld, token: str) -> list[dict]:
    return [
        c.body
        for c in world.fake.calls
        if c.method == "PATCH" and c.path.endswith(f"{token}/messages/@original")
    ]


async def test_a_slash_command_behind_a_busy_table_is_deferred_and_then_answered(tmp_path):
    world = await DiscordWorld.open(str(tmp_path / "dc.sqlite3"), defer_after=DEFER_AFTER)
    try:
        await world.slash("21", "new", game="situan")
        lock = world.manager.lock(world.key())
        await lock.acquire()  # the table is busy (a slow step holds its lock)
        try:
            payload = world.slash_payload("22", "join")
            asked = await world.fake.interact(payload)
            await eventually(lambda: callback_types(world, asked), what="the deferral")
            assert callback_types(world, asked) == [5]  # "thinking", seen by Bob alone
            deferral = world.fake.callbacks(asked)[0].body
            assert int(deferral["data"]["flags"]) & 64
            assert original_edits(world, payload["token"]) == []
            assert world.manager.tables[world.key()].seats[1] is None
        finally:
            lock.release()
        await eventually(lambda: original_edits(world, payload["token"]), what="the answer")
        assert callback_types(world, asked) == [5]  # one response, then the edit
        assert world.manager.tables[world.key()].seats[1].user == "dc:u22"
    finally:
        await world.close()


async def test_a_click_behind_a_busy_table_is_deferred_and_still_acts(tmp_path):
    world = await DiscordWorld.open(str(tmp_path / "dc.sqlite3"), defer_after=DEFER_AFTER)
    try:
        await world.slash("21", "new", game="situan")
        lobby = await lobby_message(world)
        lock = world.manager.lock(world.key())
        await lock.acquire()
        try:
            ids = [c["custom_id"] for row in lobby["components"] for c in row["components"]]
            custom_id = next(i for i in ids if i.endswith("|/join"))
            payload = world._base("23", lobby["channel_id"], 3)
            payload["message"] = lobby
            payload["data"] = {"custom_id": custom_id, "component_type": 2}
            asked = await world.fake.interact(payload)
            await eventually(lambda: callback_types(world, asked), what="the deferral")
            assert callback_types(world, asked) == [6]  # a quiet deferred update
        finally:
            lock.release()
        await eventually(lambda: world.manager.tables[world.key()].seats[1] is not None)
        assert world.manager.tables[world.key()].seats[1].user == "dc:u23"
        assert callback_types(world, asked) == [6]
    finally:
        await world.close()


async def test_channel_posts_mention_nobody_and_the_intents_are_few(tmp_path):
    world = await DiscordWorld.open(str(tmp_path / "dc.sqlite3"))
    try:
        await world.slash("21", "new", game="situan")
        await lobby_message(world)
        posts = [c.body for c in world.channel_calls() if c.method == "POST"]
        assert posts and all(p["allowed_mentions"] == {"parse": []} for p in posts)
        intents = world.adapter.client.intents
        assert intents.guilds and not intents.message_content and not intents.members
        assert intents.value == discord.Intents(guilds=True).value
    finally:
        await world.close()


async def test_commands_are_synced_once_and_not_again_while_unchanged(tmp_path: Path):
    path = str(tmp_path / "dc.sqlite3")
    world = await DiscordWorld.open(path)
    try:
        assert len(world.fake.command_syncs()) == 1
    finally:
        await world.close()
    world = await DiscordWorld.open(path)
    try:
        assert world.fake.command_syncs() == []
        assert world.fake.ready.is_set()
    finally:
        await world.close()
