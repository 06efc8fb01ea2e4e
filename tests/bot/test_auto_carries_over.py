"""托管 lasts until the player is back: a seat that ended a hand on 托管 is on 托管 in the next
one at once (a redeal deals straight away, with nobody there to wait for), recorded as the
new hand's own action; saying /ready between hands is being back."""

from __future__ import annotations

from engine.actions import Auto
from storage import Database
from tests.bot.harness import FakeClock, Harness

REDEALT = 2
"""The seed whose first 二七王 hand everyone passes (with Ann on 托管)."""


async def table_on_auto(game: str, seed: int) -> Harness:
    h = Harness(await Database.open(":memory:"), FakeClock(), seed)
    await h.say("ann", f"/new {game}", lang="en")
    for _ in range(3):
        await h.say("ann", "/addbot")
    await h.say("ann", "/start")
    await h.say("ann", "/auto")
    return h


async def next_tick(h: Harness) -> None:
    table = h.table()
    h.clock.now = max(h.clock.now, table.deadline)
    await h.manager.tick()


async def test_a_redeal_keeps_a_seat_on_auto_without_a_time_out():
    h = await table_on_auto("erqiwang", REDEALT)
    table = h.table()
    while table.hand_number == 1:
        await next_tick(h)
    first = (await h.db.hands_of("group-1"))[0]
    assert first.result is not None and first.result["redeal"]  # everyone passed
    dealt_at = h.clock.now
    await next_tick(h)
    assert table.hand.auto[0]
    assert h.clock.now - dealt_at <= float(table.table_options["ai_delay"])  # no time limit
    assert table.hand.history[0] == Auto(0, True)
    await next_tick(h)
    second = (await h.db.hands_of("group-1"))[1]
    assert second.actions[0] == Auto(0, True).to_json()  # stored in the new hand's record
    assert not [text for text in h.recorder.texts("group") if "timed out" in text]
    await h.db.close()


async def test_ready_between_hands_means_the_player_is_back():
    h = await table_on_auto("situan", 4)
    table = h.table()
    while table.state == "playing":
        await next_tick(h)
    assert table.carried_auto == {0}
    await h.say("ann", "/ready")
    assert table.hand_number == 2 and table.carried_auto == set()
    assert not table.hand.auto[0]
    await h.db.close()
