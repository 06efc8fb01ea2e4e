"""Issue 49, item 2: one ordered stream per group (`adapters.pacing`). A hand's last state,
its posts and its settlement all go before the next hand's table, even when the next hand
was dealt while they still waited for the group's budget; the deal's line then heads the
next hand's table (one call, in order)."""

from itertools import pairwise

from adapters.pacing import GroupPacer
from bot.views.outgoing import Button, Outgoing
from tests.bot.harness import FakeClock

READY = Button("Ready", "/ready", "t1")


def state(hand: int, text: str, final: bool = False) -> Outgoing:
    return Outgoing("table", "g", text, slot=f"table t1.{hand}", final=final)


def sent_in_order(pacer: GroupPacer, clock: FakeClock) -> list[tuple[str, str | None, str]]:
    sent = []
    while (at := pacer.next_time()) is not None:
        clock.now = max(clock.now, at)
        sent += [(m.kind, m.header, m.text) for m in pacer.due()]
    return sent


def test_the_next_hand_waits_behind_the_settlement():
    clock = FakeClock(0.0)
    pacer = GroupPacer(clock)
    pacer.submit(state(1, "hand 1: AI 3 to play"))
    assert [m.text for m in pacer.due()] == ["hand 1: AI 3 to play"]
    # Within one slot: the hand ends, is settled, and the next one is dealt.
    pacer.submit(Outgoing("group", "g", "AI 0 is out: third."))
    pacer.submit(state(1, "hand 1: over", final=True))
    pacer.submit(Outgoing("group", "g", "Settlement", buttons=((READY,),), picture=lambda: b""))
    pacer.submit(Outgoing("group", "g", "Hand 2 is dealt."))
    pacer.submit(state(2, "hand 2: AI 1 to play"))
    pacer.submit(state(2, "hand 2: AI 2 to play"))
    assert sent_in_order(pacer, clock) == [
        ("table", None, "hand 1: over"),  # the hand's last state first, in place
        ("group", None, "AI 0 is out: third."),
        ("group", None, "Settlement"),
        ("table", "Hand 2 is dealt.", "hand 2: AI 2 to play"),  # the deal heads its table
    ]


def test_hands_dealt_faster_than_the_budget_still_come_in_order():
    """Three hands end within one slot: nothing of a hand is shown before the settlement of
    the hand before it, and no hand's last state is lost."""
    clock = FakeClock(0.0)
    pacer = GroupPacer(clock)
    for hand in (1, 2, 3):
        pacer.submit(Outgoing("group", "g", f"Hand {hand} is dealt."))
        pacer.submit(state(hand, f"hand {hand}: playing"))
        pacer.submit(state(hand, f"hand {hand}: over", final=True))
        pacer.submit(Outgoing("group", "g", f"Settlement {hand}", picture=lambda: b""))
    assert sent_in_order(pacer, clock) == [
        ("table", "Hand 1 is dealt.", "hand 1: over"),
        ("group", None, "Settlement 1"),
        ("table", "Hand 2 is dealt.", "hand 2: over"),
        ("group", None, "Settlement 2"),
        ("table", "Hand 3 is dealt.", "hand 3: over"),
        ("group", None, "Settlement 3"),
    ]


# ----------------------------------------------------------------- the hand first (item 4)

LOBBY_SLOT = 6.0


def test_lobby_lines_said_within_a_lobby_slot_go_as_one_post():
    """Issue 49, item 4: "An AI player sits at seat N" three times, a second apart, is one
    post after the first (Telegram posted each alone)."""
    clock = FakeClock(0.0)
    pacer = GroupPacer(clock, lobby_slot=LOBBY_SLOT)
    sent: list[tuple[float, str]] = []
    for seat in (1, 2, 3):
        pacer.submit(Outgoing("group", "g", f"An AI player sits at seat {seat}."))
        while (at := pacer.next_time()) is not None and at <= clock.now:
            sent += [(clock.now, m.text) for m in pacer.due()]
        clock.now += 1.0
    while (at := pacer.next_time()) is not None:
        clock.now = max(clock.now, at)
        sent += [(clock.now, m.text) for m in pacer.due()]
    assert sent == [
        (0.0, "An AI player sits at seat 1."),
        (LOBBY_SLOT, "An AI player sits at seat 2.\nAn AI player sits at seat 3."),
    ]


def test_after_a_minute_of_lobby_chatter_the_hand_gets_a_call_every_slot():
    """A line typed every 2 s for a whole minute before the deal (each its own post, were it
    let through), then a hand whose state changes every second: from its first state on,
    the table is shown every slot (3 s), the budget of 20 calls a minute kept throughout;
    the lines still waiting at the deal head its table."""
    clock = FakeClock(0.0)
    pacer = GroupPacer(clock, lobby_slot=LOBBY_SLOT)
    sent: list[tuple[float, Outgoing]] = []

    def run_until(moment: float) -> None:
        while (at := pacer.next_time()) is not None and at <= moment:
            clock.now = max(clock.now, at)
            sent.extend((clock.now, m) for m in pacer.due())
        clock.now = moment

    for number in range(30):
        pacer.submit(Outgoing("group", "g", f"Eve: you have no seat at this table ({number})."))
        run_until(clock.now + 2.0)
    dealt_at = clock.now
    for number in range(60):
        pacer.submit(state(1, f"hand 1: state {number}"))
        run_until(clock.now + 1.0)
    times = [at for at, _ in sent]
    assert all(sum(start <= t < start + 60 for t in times) <= 20 for start in times)
    table_times = [at for at, m in sent if m.kind == "table"]
    assert table_times[0] - dealt_at <= 3.0
    assert max(b - a for a, b in pairwise(table_times)) <= 3.0
    lobby = [at for at, m in sent if m.kind == "group"]
    assert all(sum(start <= t < start + 60 for t in lobby) <= 10 for start in lobby)
    shown = "\n".join(m.header or m.text for _, m in sent)
    assert [f"({n})" in shown for n in range(30)] == [True] * 30  # no line lost
