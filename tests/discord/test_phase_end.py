"""Issue 49, item 3 through discord.py against the fake Discord API: the auction's end is
posted above the table with the auction closed, never above it open (`tests.phase_end`)."""

from __future__ import annotations

from typing import Any

from tests.discord.test_live_table import channel_steps
from tests.discord.world import DiscordWorld
from tests.live_table import AUCTION_OVER
from tests.phase_end import CLOSED, auction_over_above_it_open, end_the_auction


async def test_the_auctions_end_never_heads_the_auction_open(tmp_path):
    world = await DiscordWorld.open(str(tmp_path / "dc.sqlite3"))
    make = world.fake._message

    def remembering(channel_id: str, body: dict[str, Any], flags: int = 0) -> dict[str, Any]:
        message = make(channel_id, body, flags)  # every message remembers its id in its call
        body["_id"] = message["id"]
        return message

    world.fake._message = remembering  # type: ignore[method-assign]
    try:
        await end_the_auction(world.adapter.outbox, world.key())
        calls = channel_steps(world)
        assert auction_over_above_it_open(calls) is None, auction_over_above_it_open(calls)
        headed = [c.text for c in calls if AUCTION_OVER.search(c.text)]
        assert headed and headed[0].endswith(CLOSED), headed
    finally:
        await world.close()
