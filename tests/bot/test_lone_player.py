"""A person alone with AI players (the console's table) is never dropped for not being
ready: the table pauses and waits for their /ready (Continue), for ``idle_minutes`` at most
(bot.table.lobby.ready_timeout, bot.table.dealing.hold)."""

from __future__ import annotations

from tests.bot.harness import Harness
from tests.bot.test_following_the_table import move_of


async def play_one_hand_as_ann(harness: Harness) -> None:
    table = harness.table()
    while table.state == "playing":
        if table.hand.to_act == 0:
            await harness.say("ann", move_of(table))
            continue
        harness.clock.now = max(harness.clock.now, table.deadline)
        await harness.manager.tick()


async def one_hand_played_alone(tmp_path) -> Harness:
    """Ann alone with three AI players has played the match's first hand."""
    harness = await Harness.open(str(tmp_path / "l.sqlite3"), seed=6)
    await harness.say("ann", "/new erqiwang", lang="en")
    for _ in range(3):
        await harness.say("ann", "/addbot")
    await harness.say("ann", "/start")
    await play_one_hand_as_ann(harness)
    return harness


async def test_a_lone_player_who_waits_five_minutes_after_a_settlement_is_still_seated(tmp_path):
    harness = await one_hand_played_alone(tmp_path)
    try:
        table = harness.table()
        assert table.state == "between"
        for _ in range(300):  # five minutes, the timers running every second
            harness.clock.advance(1)
            await harness.manager.tick()
        assert table.state == "between" and table.seat_of("ann") == 0
        assert all(seat is not None and seat.ai for seat in table.seats[1:])
        paused = [text for text in harness.recorder.texts("group") if "paused" in text]
        assert paused == [
            "Nobody was ready for the next hand, so the table has paused. Press "
            "Continue (or say /ready) to deal the next hand; otherwise the match "
            "ends in 10 minutes."
        ]
        settled = table.hand_number
        await harness.say("ann", "/ready")
        assert table.state == "playing" and table.hand_number == settled + 1
    finally:
        await harness.db.close()


async def test_a_lone_player_away_for_idle_minutes_more_ends_the_match(tmp_path):
    harness = await one_hand_played_alone(tmp_path)
    try:
        table = harness.table()
        harness.clock.advance(61)  # ready_seconds
        await harness.manager.tick()
        harness.clock.advance(599)  # not yet ``idle_minutes`` (10)
        await harness.manager.tick()
        assert table.state == "between"
        harness.clock.advance(1)
        await harness.manager.tick()
        assert table.state == "closed"
        said = harness.recorder.texts("group")
        assert "Nobody came back for 10 minutes: the match ends here." in said
        assert said[-1].startswith("The match is over.\nMatch score:")
    finally:
        await harness.db.close()
