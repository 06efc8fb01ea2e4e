"""bot.md: Group posts — the call budget and coalesced table-message edits."""

import random
from itertools import pairwise

from adapters.pacing import RESERVATION, CallBudget, GroupPacer
from bot.views.outgoing import Button, Outgoing
from tests.bot.harness import FakeClock

READY = Button("Ready", "/ready", "t1")


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
    for number in range(30):  # each with a button: no two go as one message
        pacer.submit(Outgoing("group", "g", f"post {number}", buttons=((READY,),)))
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


def test_counted_when_made_a_late_call_never_lets_the_next_ones_bunch():
    """The adapter makes each released call some time later (behind a slow upload); the
    budget counts the moments the calls are made, so no 60 s holds more than 20 of them."""
    clock = FakeClock(0.0)
    budget = CallBudget(window=61.0, counts_when_made=True)
    pacer = GroupPacer(clock, calls=budget)
    rng = random.Random(7)
    made: list[float] = []
    ends: list[float] = []
    free_at = 0.0  # the sender is busy with the previous call until then
    for number in range(300):  # a button each: every post is a call of its own
        pacer.submit(Outgoing("group", "g", f"post {number}", buttons=((READY,),)))
    while len(made) < 300:
        released = pacer.due()
        for _ in released:
            start = max(clock.now, free_at)
            start = max(start, budget.made_room_at(start))  # the gate, just before the call
            budget.made(start)
            made.append(start)
            free_at = start + rng.choice([0.01] * 8 + [4.0, 9.0])  # some calls are slow
            ends.append(free_at)
        upcoming = pacer.next_time()
        assert upcoming is not None or len(made) == 300
        clock.now = max(clock.now + 0.01, upcoming or clock.now)
    for start in made:
        assert sum(1 for at in made if start <= at < start + 60) <= 20
    # And nothing is wasted: each call is made one slot after the last, or as soon as the
    # sender is free, or when the window (61 s here) lets it — never later.
    for before, at, end in zip(made, made[1:], ends, strict=False):
        full = sum(1 for other in made if at - 61 <= other < at) >= 20
        assert at <= max(before + 3.0, end) + 0.05 or full  # the loop steps by 0.01 s


def test_topics_of_one_forum_share_its_budget():
    clock = FakeClock(0.0)
    shared = CallBudget()
    topics = [GroupPacer(clock, calls=shared) for _ in range(3)]
    sent: list[float] = []
    for topic in topics:
        for number in range(20):  # a button each: every post is a call of its own
            topic.submit(Outgoing("group", "g", f"post {number}", buttons=((READY,),)))
    while clock.now < 200:
        for topic in topics:
            sent += [clock.now for _ in topic.due()]
        clock.now += 0.5
    assert len(sent) == 60
    for start in sent:
        assert sum(1 for at in sent if start <= at < start + 60) <= 20


def test_a_release_that_ends_in_no_call_gives_its_room_back():
    budget = CallBudget(counts_when_made=True)
    budget.released(0.0, calls=20)  # twenty released, none made (all found unchanged)
    assert budget.room(1.0) == 0
    assert budget.free_at(1.0) == RESERVATION
    assert budget.room(RESERVATION) == 20
    budget.released(RESERVATION)
    budget.made(RESERVATION + 1)  # made: the reservation becomes a call of the window
    assert (budget.room(RESERVATION + 1), len(budget.reserved)) == (19, 0)


def test_posts_waiting_together_go_as_one_message_in_order():
    """Seats taken and a deal announced within one slot reach the group together, not one
    slot apart with the hand already under way; what a message carries beside its text (a
    picture, a file, buttons for the posts before it) keeps it apart."""
    clock = FakeClock(0.0)
    pacer = GroupPacer(clock)
    pacer.submit(Outgoing("group", "g", "Ann opened a table."))
    assert [m.text for m in pacer.due()] == ["Ann opened a table."]
    for seat in (1, 2, 3):
        pacer.submit(Outgoing("group", "g", f"An AI player sits at seat {seat}."))
    pacer.submit(Outgoing("group", "g", "Ready?", buttons=((READY,),)))
    pacer.submit(Outgoing("group", "g", "Settlement", picture=lambda: b"png"))
    pacer.submit(Outgoing("group", "g", "Record", filename="hand.json"))
    sent: list[tuple[float, Outgoing]] = []
    drive(pacer, clock, 60, sent)
    assert [m.text for _, m in sent] == [
        "An AI player sits at seat 1.\nAn AI player sits at seat 2.\n"
        "An AI player sits at seat 3.\nReady?",
        "Settlement",
        "Record",
    ]
    assert sent[0][1].buttons == ((READY,),)
    assert [at for at, _ in sent] == [3.0, 6.0, 9.0]


HAND = Button("My hand", "/hand", "t1.1")


def table_state(text: str, final: bool = False) -> Outgoing:
    return Outgoing(
        "table", "g", text, buttons=() if final else ((HAND,),), slot="table t1.1", final=final
    )


def test_the_live_table_is_always_the_newest_message_and_posts_head_it():
    """bot.md: the table message is the latest in the chat. A post while the hand runs is
    the header of the table message sent anew below it (the one above keeps its own
    header); a post that cannot be a header goes alone and the table follows it down; once
    the hand is over, posts stay below its last state."""
    clock = FakeClock(0.0)
    pacer = GroupPacer(clock)
    pacer.submit(Outgoing("group", "g", "Hand 1 is dealt."))
    pacer.submit(table_state("Turn: Ann"))
    sent: list[tuple[float, Outgoing]] = []
    drive(pacer, clock, 3, sent)
    dealt = sent[-1][1]
    assert (dealt.kind, dealt.header, dealt.text) == ("table", "Hand 1 is dealt.", "Turn: Ann")
    pacer.submit(table_state("Turn: Bob"))
    pacer.submit(Outgoing("group", "g", "Ann has timed out 1 time."))
    drive(pacer, clock, 6, sent)
    moved = sent[-1][1]
    assert (moved.kind, moved.header, moved.text) == (
        "table",
        "Ann has timed out 1 time.",
        "Turn: Bob",
    )
    pacer.submit(Outgoing("group", "g", "Ann: your turn.", mention="ann"))  # a header too
    drive(pacer, clock, 9, sent)
    assert (sent[-1][1].header, sent[-1][1].text, sent[-1][1].mention) == (
        "Ann: your turn.",
        "Turn: Bob",
        "ann",
    )
    pacer.submit(Outgoing("group", "g", "A poll", buttons=((READY,),)))
    drive(pacer, clock, 60, sent)
    alone, below = sent[-2][1], sent[-1][1]
    assert (alone.kind, alone.text) == ("group", "A poll")
    assert (below.kind, below.header, below.text) == ("table", "", "Turn: Bob")
    pacer.submit(table_state("Ann wins", final=True))
    pacer.submit(Outgoing("group", "g", "Settlement", picture=lambda: b"png"))
    drive(pacer, clock, 120, sent)
    assert [(m.kind, m.header, m.text) for _, m in sent[-2:]] == [
        ("table", None, "Ann wins"),
        ("group", None, "Settlement"),
    ]
    assert [m.kind for _, m in sent].count("group") == 2  # no post ever went above the table


def test_posts_joined_stay_short_enough_for_one_message():
    clock = FakeClock(0.0)
    pacer = GroupPacer(clock)
    for number in range(6):
        pacer.submit(Outgoing("group", "g", f"{number}" * 400))
    sent: list[tuple[float, Outgoing]] = []
    drive(pacer, clock, 60, sent)
    assert [len(m.text) for _, m in sent] == [1202, 1202]  # three of 400 and two newlines
    assert "".join(m.text.replace("\n", "") for _, m in sent) == "".join(
        f"{n}" * 400 for n in range(6)
    )
