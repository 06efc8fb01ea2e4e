"""bot.md: Group posts — the call budget and coalesced table-message edits."""

import random
from itertools import pairwise

from bot.outgoing import Outgoing
from bot.pacing import GroupPacer
from tests.bot.harness import FakeClock


def drive(pacer: GroupPacer, clock: FakeClock, until: float, sent: list[tuple[float, Outgoing]]):
    while True:
        for message in pacer.due():
            sent.append((clock.now, message))
        upcoming = pacer.next_time()
        if upcoming is None or upcoming > until:
            return
        clock.now = max(clock.now, upcoming)


def test_four_fast_players_never_cost_more_than_20_group_calls_a_minute_and_plays_show_in_3s():
    clock = FakeClock(0.0)
    pacer = GroupPacer(clock)
    rng = random.Random(1)
    sent: list[tuple[float, Outgoing]] = []
    plays: list[tuple[float, int]] = []
    for number in range(400):  # a play every 0.2–1 s for several minutes
        next_play = clock.now + rng.uniform(0.2, 1.0)
        drive(pacer, clock, next_play, sent)  # the adapter's timer fires at next_time()
        clock.now = next_play
        pacer.submit(Outgoing("table", "g", f"state {number}"))
        plays.append((clock.now, number))
        if number % 60 == 0:
            pacer.submit(Outgoing("group", "g", f"event {number}"))
        drive(pacer, clock, clock.now, sent)
    drive(pacer, clock, clock.now + 120, sent)
    times = [at for at, _ in sent]
    for start in times:
        assert sum(1 for at in times if start <= at < start + 60) <= 20
    shown_states = []  # (time, state number) of every call that showed a table state
    for at, message in sent:
        for line in message.text.splitlines():
            if line.startswith("state "):
                shown_states.append((at, int(line.split()[1])))
    for played_at, number in plays:  # the first call showing this play or a later one
        shown = min(at for at, state in shown_states if state >= number)
        assert shown - played_at <= 3.0 + 1e-9, (number, shown - played_at)
    table_edits = [m for _, m in sent if m.kind == "table"]
    assert len(table_edits) < len(plays) / 3  # coalesced: far fewer edits than plays
    assert table_edits[-1].text == "state 399"  # the table message ends current


def test_posts_are_sent_in_order_and_never_dropped():
    clock = FakeClock(0.0)
    pacer = GroupPacer(clock)
    for number in range(30):
        pacer.submit(Outgoing("group", "g", f"post {number}"))
    sent: list[tuple[float, Outgoing]] = []
    drive(pacer, clock, 200, sent)
    assert [m.text for _, m in sent] == [f"post {n}" for n in range(30)]
    assert sent[20][0] >= 60  # the 21st waits for the window
    assert all(b[0] - a[0] >= 3.0 for a, b in pairwise(sent))


def test_only_the_latest_table_state_is_sent():
    clock = FakeClock(0.0)
    pacer = GroupPacer(clock)
    pacer.submit(Outgoing("table", "g", "one"))
    assert [m.text for m in pacer.due()] == ["one"]
    pacer.submit(Outgoing("table", "g", "two"))
    pacer.submit(Outgoing("table", "g", "three"))
    assert pacer.due() == []  # within the slot
    clock.now = 3.0
    assert [m.text for m in pacer.due()] == ["three"]
