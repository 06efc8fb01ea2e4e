"""Whose quick tables a process may hold (`bot.hosting.quick_reach`): Telegram's players
wherever Telegram runs, Discord's only where shard 0 runs (Discord sends direct messages
there alone), the console's person only in the console."""

from __future__ import annotations

from adapters.platforms import PlatformSettings
from bot.hosting.quick_reach import EVERYONE, Reach
from bot.ops.config import load


def test_a_process_reaches_the_platforms_it_sends_on_and_hears_privately():
    everything = Reach.of_process(telegram=True, discord=True)
    assert everything.reaches("tg:u1") and everything.reaches("dc:u2")
    assert not everything.reaches("you")  # the console's person is the console's own
    shard_zero = Reach.of_process(telegram=False, discord=True, shard_ids=(0, 1))
    assert shard_zero.reaches("dc:u2") and not shard_zero.reaches("tg:u1")
    other_shards = Reach.of_process(telegram=True, discord=True, shard_ids=(2, 3))
    assert other_shards.reaches("tg:u1") and not other_shards.reaches("dc:u2")
    assert Reach.of_process(telegram=False, discord=False).platforms == frozenset()


def test_a_process_sharing_nothing_reaches_everyone():
    assert EVERYONE.platforms is None
    assert all(EVERYONE.reaches(user) for user in ("tg:u1", "dc:u2", "you", "console:3"))


def test_the_settings_of_a_process_give_its_reach():
    """``DISCORD_SHARDS`` without shard 0: that process hears no Discord direct message."""

    def reach(**env: str) -> frozenset[str] | None:
        settings = PlatformSettings.from_settings(load(env, BOT_DB="x.sqlite3", BOT_LANG="en"))
        return settings.reach().platforms

    assert reach(TELEGRAM_BOT_TOKEN="1:a", DISCORD_BOT_TOKEN="d") == {"tg", "dc"}
    assert reach(TELEGRAM_BOT_TOKEN="1:a", DISCORD_BOT_TOKEN="d", DISCORD_SHARDS="2-3/4") == {"tg"}
    assert reach(DISCORD_BOT_TOKEN="d", DISCORD_SHARDS="0-1/4") == {"dc"}
