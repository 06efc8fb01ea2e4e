"""Between hands nobody's turn is running: the reminder of the turn a hand ended on (a
person to lead next, a quarter of their time before its end) is never sent with the ready
time — "Still your turn: 45 s left" after the settlement, with 20 s turns (issue 37)."""

from __future__ import annotations

from pathlib import Path

from bot.table.state import BETWEEN, PLAYING
from tests.bot.harness import FakeClock, Harness


async def test_no_turn_reminder_once_the_hand_is_over(tmp_path: Path):
    harness = await Harness.open(str(tmp_path / "s.sqlite3"), FakeClock(), seed=13)
    await harness.say("ann", "/new situan", lang="en")
    for setting in ("turn_seconds 20", "ready_seconds 60"):
        await harness.say("ann", f"/settings {setting}")
    for _ in range(3):
        await harness.say("ann", "/addbot")
    await harness.say("ann", "/start")
    table = harness.table()
    # Ann passes where she may, else lets her time run out (the table plays for her) and
    # comes back from 托管 at once: her turns stay hers to the end of the hand.
    while table.state == PLAYING:
        hand = table.hand
        if hand.auto[0]:
            await harness.say("ann", "/auto off")
        elif hand.to_act == 0 and any(a.act == "pass" for a in hand.legal_actions(0)):
            await harness.say("ann", "/pass")
            continue
        harness.clock.now = max(harness.clock.now, table.deadline)
        await harness.manager.tick()
    assert table.state == BETWEEN
    assert table.turn_seat == 0 and not table.hand.auto[0]  # the turn the hand ended on
    harness.recorder.clear()
    for _ in range(59):  # the ready time, second by second: nothing but the wait
        harness.clock.advance(1)
        await harness.manager.tick()
    assert harness.recorder.texts() == []
    await harness.say("ann", "/ready")
    assert table.state == PLAYING and table.hand_number == 2
