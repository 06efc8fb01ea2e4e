"""二七王 with nobody there to bid: every seat a person on 托管 (or timing out). The 托管 rule
passes wherever it may, so an all-pass hand would be dealt again at once, and again, for ever.
Instead the table waits for the players to be ready, as after any hand; the ready timer seats
AI players for those who are not there, and a table without people closes after
``idle_minutes``."""

from __future__ import annotations

import pytest

from storage import Database
from tests.bot.harness import FakeClock, Harness

PEOPLE = ("ann", "bob", "cat", "dan")
WAITS = "Everyone passed, and nobody at the table bid for themselves"


async def four_people(seed: int, on_auto: bool) -> Harness:
    h = Harness(await Database.open(":memory:"), FakeClock(), seed)
    await h.say("ann", "/new erqiwang", lang="en")
    for user in PEOPLE[1:]:
        await h.say(user, "/join", lang="en")
    await h.say("ann", "/start")
    if on_auto:
        for user in PEOPLE:
            await h.say(user, "/auto on")
    return h


async def until_hand_one_ends(h: Harness) -> None:
    table = h.table()
    for _ in range(50):
        if table.state != "playing":
            return
        h.clock.now = max(h.clock.now, table.deadline)
        await h.manager.tick()
    raise AssertionError("hand 1 never ended")


@pytest.mark.parametrize("on_auto", [True, False], ids=["托管", "time-outs"])
async def test_an_all_pass_with_nobody_acting_waits_for_the_players(on_auto):
    h = await four_people(1, on_auto)
    table = h.table()
    await until_hand_one_ends(h)
    first = (await h.db.hands_of("group-1"))[0]
    assert first.result is not None and first.result["redeal"]  # everyone passed
    assert table.state == "between" and table.hand_number == 1  # not dealt again at once
    posts = [m for m in h.recorder.sent if m.kind == "group" and m.text.startswith(WAITS)]
    assert len(posts) == 1
    assert [b.command for row in posts[0].buttons for b in row] == ["/ready"]
    assert not [t for t in h.recorder.texts("group") if t.startswith("Hand 2 is dealt")]
    await h.db.close()


async def test_the_players_ready_deals_again_with_the_same_first_bidder():
    h = await four_people(1, on_auto=True)
    table = h.table()
    first_bidder = table.hand.to_act
    await until_hand_one_ends(h)
    for user in PEOPLE:
        await h.say(user, "/ready")
    assert table.state == "playing" and table.hand_number == 2
    assert table.hand.to_act == first_bidder  # the rules: dealt again, same first bidder
    assert not any(table.hand.auto)  # being ready is being back
    await h.db.close()


async def test_a_table_nobody_acts_at_comes_to_an_end():
    """Left alone, the table deals a bounded number of hands: the people not ready are
    replaced by AI players (who bid), and the table without people closes after
    ``idle_minutes``, its ledger posted."""
    h = await four_people(1, on_auto=True)
    table = h.table()
    await h.run_until(lambda: table.state == "closed", limit=3000)
    group = h.recorder.texts("group")
    assert sum(t.startswith(WAITS) for t in group) == 1  # AI players bid when back
    for user in PEOPLE:
        assert f"{user.title()} was not ready and leaves the table." in group
    assert any(t.startswith("Nobody has been at the table for 10 minutes") for t in group)
    assert table.hand_number <= 20  # some minutes of AI play; a redeal loop deals ~15 a minute
    await h.db.close()
