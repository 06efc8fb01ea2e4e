"""Issue 49, item 2: one ordered stream per group (`adapters.pacing`). A hand's last state,
its posts and its settlement all go before the next hand's table, even when the next hand
was dealt while they still waited for the group's budget; the deal's line then heads the
next hand's table (one call, in order)."""

from adapters.pacing import GroupPacer
from bot.outgoing import Button, Outgoing
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
