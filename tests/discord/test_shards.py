"""DISCORD_SHARDS: a process connects only its share of the bot's shards (``0-1/4``), so
several processes can split a large bot; the real discord.py client identifies each one."""

from __future__ import annotations

from pathlib import Path

import pytest

from adapters.discord.client import DiscordSettings
from adapters.startup import StartupError
from bot.ops.config import load, read_shards
from tests.discord.world import DiscordWorld


def test_shards_are_read_as_which_of_how_many():
    assert read_shards("0-1/4") == ((0, 1), 4)
    assert read_shards("3,1/4") == ((1, 3), 4)
    assert read_shards("2/4") == ((2,), 4)
    env = {"DISCORD_BOT_TOKEN": "t", "DISCORD_SHARDS": "1-2/4"}
    settings = DiscordSettings.from_settings(load(env))
    assert settings is not None and (settings.shard_ids, settings.shard_count) == ((1, 2), 4)
    assert DiscordSettings.from_settings(load({"DISCORD_BOT_TOKEN": "t"})) == DiscordSettings("t")


@pytest.mark.parametrize("wrong", ["4/4", "0-1", "a/4", "1/0", "/4", "2-1/4"])
def test_a_wrong_shard_setting_says_what_is_wanted(wrong):
    with pytest.raises(StartupError, match="like 0-1/4"):
        load({"DISCORD_SHARDS": wrong})


async def test_the_client_identifies_only_its_own_shards(tmp_path: Path):
    settings = DiscordSettings(token="discord-test-token", shard_ids=(1, 2), shard_count=4)
    world = await DiscordWorld.open(str(tmp_path / "dc.sqlite3"), settings=settings)
    try:
        assert sorted(world.fake.identified) == [[1, 4], [2, 4]]
        assert world.adapter.client.shard_ids == [1, 2]
        answer = await world.slash("21", "help")
        assert answer and answer[0]["data"]["content"]  # commands arrive and are answered
    finally:
        await world.close()
