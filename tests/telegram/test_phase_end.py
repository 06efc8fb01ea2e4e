"""Issue 49, item 3 through python-telegram-bot against the fake Bot API: the auction's end
is posted above the table with the auction closed, never above it open (`tests.phase_end`)."""

from __future__ import annotations

from typing import Any

from tests.live_table import AUCTION_OVER
from tests.phase_end import CLOSED, auction_over_above_it_open, end_the_auction
from tests.telegram.test_live_table import group_steps
from tests.telegram.world import TelegramWorld


async def test_the_auctions_end_never_heads_the_auction_open(tmp_path):
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"))
    store = world.api._store

    def remembering(chat_id: int, params: dict[str, Any]) -> dict[str, Any]:
        message = store(chat_id, params)  # every message remembers its id in its call
        params["_id"] = message["message_id"]
        return message

    world.api._store = remembering  # type: ignore[method-assign]
    try:
        await end_the_auction(world.adapter.outbox, world.key())
        calls = group_steps(world)
        assert auction_over_above_it_open(calls) is None, auction_over_above_it_open(calls)
        headed = [c.text for c in calls if AUCTION_OVER.search(c.text)]
        assert headed and headed[0].endswith(CLOSED), headed
    finally:
        await world.close()
