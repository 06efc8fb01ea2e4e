"""The host runs whole matches under valid but unusual settings without an exception: what
an AI seat or 托管 does always comes from the engine's list (the 二七王 AI once bid 115 with
bid_step 10 and stopped the bot)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.table.state import CLOSED
from tests.bot.harness import CHAT, Harness

ODD = {
    "erqiwang": [
        ("bid_step", "10"),
        ("bid_max", "115"),
        ("bid_min", "20"),
        ("throw", "none"),
        ("first_must_bid", "true"),
        ("surrender_above", "40"),
        ("scoring", "online"),
    ],
    "situan": [
        ("lead_after_out", "partner"),
        ("first_leader", "spade3"),
        ("early_end", "off"),
        ("dun_counted", "played"),
        ("show_multiplier", "3"),
        ("announce_at", "20"),
    ],
}


@pytest.mark.parametrize("game", ["situan", "erqiwang"])
async def test_ai_only_matches_under_odd_settings_end_and_settle(tmp_path: Path, game: str):
    harness = await Harness.open(str(tmp_path / "odd.sqlite3"), seed=11)
    try:
        await harness.say("ann", f"/new {game}")
        for name, value in [*ODD[game], ("ai_delay", "0"), ("max_hands", "3")]:
            sent = await harness.say("ann", f"/settings {name} {value}")
            assert [m.kind for m in sent] == ["group"], [m.text for m in sent]
        await harness.say("ann", "/leave")
        for _ in range(4):
            await harness.say("ann", "/addbot")
        await harness.say("ann", "/start")
        await harness.run_until(lambda: harness.table().state == CLOSED)
        finished = [h for h in await harness.db.hands_of(CHAT) if h.result is not None]
        settled = [h for h in finished if not h.result.get("redeal")]
        assert len(settled) == 3
        assert sum(harness.table().ledger.values()) == 0
    finally:
        await harness.db.close()
