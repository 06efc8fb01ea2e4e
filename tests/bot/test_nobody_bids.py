"""二七王 with nobody there to bid: every seat a person on 托管 (or timing out). The 托管 rule
passes wherever it may, so an all-pass hand would be dealt again at once, and again, for ever.
Instead the table waits for the players to be ready, as after any hand — or, where no person
acted in the hand at all, it pauses at once; nobody ready pauses it too, and a paused table
closes after ``idle_minutes``. No AI player ever takes a person's seat."""

from __future__ import annotations

import pytest

from storage import Database
from tests.bot.harness import FakeClock, Harness

PEOPLE = ("ann", "bob", "cat", "dan")
WAITS = "Everyone passed, and nobody at the table bid for themselves"
PAUSED = "Nobody at the table played this hand, so the table has paused. Press Continue"


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
    """On 托管 by their own choice they acted: the table waits for them to be ready. Timing
    out, nobody acted at all: the table pauses with one post and its Continue button."""
    h = await four_people(1, on_auto)
    table = h.table()
    await until_hand_one_ends(h)
    first = (await h.db.hands_of("group-1"))[0]
    assert first.result is not None and first.result["redeal"]  # everyone passed
    assert table.state == "between" and table.hand_number == 1  # not dealt again at once
    waits = [m for m in h.recorder.sent if m.kind == "group" and m.text.startswith(WAITS)]
    paused = [m for m in h.recorder.sent if m.kind == "group" and m.text.startswith(PAUSED)]
    assert (len(waits), len(paused)) == ((1, 0) if on_auto else (0, 1))
    posts = waits or paused
    assert [b.command for row in posts[0].buttons for b in row] == ["/ready"]
    assert table.on_hold is not on_auto
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
    """Left alone, the table deals no more hands: nobody is ready, so it pauses — every
    person keeps their seat, no AI player takes one — and closes after ``idle_minutes``,
    its ledger posted."""
    h = await four_people(1, on_auto=True)
    table = h.table()
    await h.run_until(lambda: table.state == "closed", limit=3000)
    group = h.recorder.texts("group")
    waits = [m for m in h.recorder.sent if m.kind == "group" and m.text.startswith(WAITS)]
    assert [bool(m.buttons) for m in waits] == [True, False]  # its Ready off at the pause
    paused = [m for m in h.recorder.sent if m.kind == "group" and "the table has paused" in m.text]
    assert [bool(m.buttons) for m in paused] == [True, False]  # said once; Continue off at the end
    assert not [t for t in group if "leaves the table" in t]
    assert [seat.user for seat in table.seats] == list(PEOPLE)
    assert "Nobody came back for 10 minutes: the match ends here." in group
    assert group[-1].startswith("The match is over.")
    assert table.hand_number == 1
    await h.db.close()
