"""托管 lasts until the player is back: a seat that ended a hand on 托管 is on 托管 in the next
one at once (a redeal deals straight away, with nobody there to wait for), recorded as the
new hand's own action; saying /ready between hands is being back."""

from __future__ import annotations

from engine.actions import Auto
from storage import Database
from tests.bot.harness import FakeClock, Harness, latest_hand_message, table_with_three_bots

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
    assert h.clock.now - dealt_at <= table.table_options.ai_delay  # no time limit
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
    assert table.carried_auto == {"ann"}
    await h.say("ann", "/ready")
    assert table.hand_number == 2 and table.carried_auto == set()
    assert not table.hand.auto[0]
    await h.db.close()


BOB_BIDS_FIRST = 11
"""The seed whose second 二七王 hand Bob (seat 2) bids first in, Ann still on 托管."""


async def test_the_carried_auto_never_shortens_a_present_players_time():
    """Ann stays on 托管 into hand 2 (the host deals it with /next); Bob is back (/ready) and
    bids first: once Ann is put on 托管, Bob gets his full time and never times out."""
    h = Harness(await Database.open(":memory:"), FakeClock(), BOB_BIDS_FIRST)
    await h.say("ann", "/new erqiwang", lang="en")
    await h.say("ann", "/addbot")
    await h.say("bob", "/join", lang="en")
    await h.say("ann", "/addbot")
    await h.say("ann", "/start")
    await h.say("ann", "/auto")
    await h.say("bob", "/auto")
    table = h.table()
    while table.state == "playing":
        await next_tick(h)
    await h.say("bob", "/ready")
    await h.say("ann", "/next")
    assert table.hand_number == 2 and table.carried_auto == {"ann"}
    assert table.hand.to_act == 2  # Bob bids first
    await next_tick(h)  # Ann back on 托管
    assert table.hand.auto[0] and not table.hand.auto[2]
    assert table.deadline - h.clock.now == table.hand.time_limit  # Bob's own time
    await h.manager.tick()  # a timer pass at once: nothing is due
    assert not [text for text in h.recorder.texts("group") if "Bob has timed out" in text]
    await h.db.close()


async def test_a_seat_taken_by_someone_else_is_not_on_auto():
    h = await table_on_auto("situan", 4)
    table = h.table()
    while table.state == "playing":
        await next_tick(h)
    await h.say("ann", "/leave")  # between hands: her seat is free
    await h.say("cai", "/join", lang="en")
    assert table.seat_of("cai") == 0
    await h.say("cai", "/ready")
    await h.say("cai", "/next")
    assert table.hand_number == 2
    await next_tick(h)
    assert not table.hand.auto[0]  # Cai plays for himself
    await h.db.close()


async def test_a_player_on_tuoguan_is_told_the_table_plays_the_turn_not_asked_for_it(tmp_path):
    harness = await table_with_three_bots(
        str(tmp_path / "a.sqlite3"), FakeClock(), "erqiwang", lang="en"
    )
    try:
        before = latest_hand_message(harness, "ann").text
        assert "\nYour turn." in before  # the bidding waits for her
        await harness.say("ann", "/auto on", private=True)
        after = latest_hand_message(harness, "ann").text
        assert "Your turn." not in after
        assert after.endswith(  # the same words whoever's turn it is: one edit a turn at most
            "On auto-play: the table plays your turns. Turn auto-play off to play yourself."
        )
    finally:
        await harness.db.close()
