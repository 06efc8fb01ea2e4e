"""Issue 41, item 2: one send budget for the whole bot. A person's private notice goes before
the group edits queued ahead of it; a group still never gets more than 20 calls a minute;
and when the tables ask twice what the budget allows, every table's latest state is still
delivered (older ones are dropped, not the newest).

All on a virtual clock (`tests.virtual_time`): the real pacers, conversations and budget,
minutes of traffic in a moment, the same on every run."""

from __future__ import annotations

import asyncio
import re

from adapters.send_budget import Priority, SendBudget, priority_of
from adapters.telegram.membership import KEEP_SECONDS, Memberships
from bot.views.outgoing import Kind, Outgoing
from tests.call_windows import calls_per_window
from tests.counted_sends import CountedOutbox
from tests.virtual_time import run_virtual


def table_state(chat: str, number: int) -> Outgoing:
    return Outgoing(Kind.TABLE, chat, f"table {number}", slot=f"table {chat} hand 1")


def turn_notice(user: str) -> Outgoing:
    return Outgoing(Kind.PRIVATE, "group-0", f"Your turn, {user}", user=user)


async def until_sent(outbox: CountedOutbox) -> None:
    while not (outbox.paced_out() and outbox.idle()):
        await asyncio.sleep(0.5)


def test_messages_are_ranked_a_persons_notice_hand_and_refusal_first_then_tables():
    private_hand = Outgoing(Kind.PRIVATE, "g", "hand", user="ann", slot="hand g 1")
    refusal = Outgoing(Kind.REPLY, "g", "It is Bob's turn, not yours.", user="ann")
    record = Outgoing(Kind.PRIVATE, "g", "…", user="ann", filename="hand.txt")
    assert priority_of(turn_notice("ann")) == priority_of(refusal) == Priority.PERSON
    assert priority_of(private_hand) == Priority.PERSON  # the notice waits behind it
    assert priority_of(table_state("g", 1)) == Priority.TABLE
    assert priority_of(Outgoing(Kind.GROUP, "g", "Hand 2 is dealt.")) == Priority.TABLE
    assert priority_of(record) == priority_of(Outgoing(Kind.DELETE, "g", "7")) == Priority.OTHER


def test_the_budget_grants_by_priority_and_never_more_than_its_rate():
    now = [0.0]
    budget = SendBudget(rate=2.0, clock=lambda: now[0], timers=False)
    order: list[str] = []

    async def ask(name: str, priority: Priority) -> None:
        await budget.call(priority)
        order.append(name)

    async def main() -> None:
        await ask("first", Priority.OTHER)
        await ask("second", Priority.OTHER)  # the burst: one second's worth
        waiting = [asyncio.ensure_future(ask(f"edit {n}", Priority.TABLE)) for n in range(3)]
        waiting.append(asyncio.ensure_future(ask("tidy", Priority.OTHER)))
        waiting.append(asyncio.ensure_future(ask("notice", Priority.PERSON)))
        await asyncio.sleep(0)
        assert budget.pump() == 0 and budget.waiting == 5
        now[0] = 0.5  # one call's worth of time
        assert budget.pump() == 1
        now[0] = 1.5  # two more
        assert budget.pump() == 2
        now[0] = 10.0  # the bucket holds one second's worth at most: two
        assert budget.pump() == 2
        assert budget.waiting == 0
        await asyncio.gather(*waiting)

    run_virtual(main())
    assert order == ["first", "second", "notice", "edit 0", "edit 1", "edit 2", "tidy"]
    assert budget.granted == {Priority.OTHER: 3, Priority.TABLE: 3, Priority.PERSON: 1}


def test_a_private_notice_overtakes_the_group_edits_queued_before_it():
    outbox = CountedOutbox(rate=1.0)

    async def main() -> None:
        for group in range(10):
            await outbox(table_state(f"group-{group}", 1))  # each group's first call: now
        await asyncio.sleep(0)  # all ten are waiting for the bot-wide budget
        await outbox(turn_notice("ann"))
        await until_sent(outbox)

    run_virtual(main())
    made = [(c.key, c.priority) for c in outbox.calls]
    assert len(made) == 11
    assert made[1] == ("ann", Priority.PERSON)  # behind the one call already made, only
    assert [c.at for c in outbox.calls][:3] == [0.0, 1.0, 2.0]  # 1 a second, bot-wide


def test_a_group_never_gets_more_than_20_calls_a_minute_however_much_it_asks():
    outbox = CountedOutbox(rate=30.0, latency=0.2)

    async def main() -> None:
        for step in range(600):  # 5 minutes of a state every half second, posts between
            await outbox(table_state("group-1", step))
            if step % 3 == 0:
                await outbox(Outgoing(Kind.GROUP, "group-1", f"post {step}", buttons=()))
            if step % 7 == 0:
                outbox.pace_delete("group-1", 1000 + step)
            await asyncio.sleep(0.5)
        await until_sent(outbox)

    run_virtual(main())
    times = [c.at for c in outbox.calls if c.group]
    assert len(times) > 90  # the budget was used: about 20 a minute for 5 minutes
    assert max(calls_per_window(times, 60.0)) <= 20
    last = [c.message.text for c in outbox.calls if c.message.kind == Kind.TABLE][-1]
    assert last.endswith("table 599")


def test_under_twice_the_demand_every_tables_latest_state_is_still_delivered():
    """30 groups each ask a call every 3 s (their own budget's pace: 10 a second in all);
    the bot may make 5 a second. Each group's state changes every 1.5 s for two minutes,
    and people are told their turn meanwhile."""
    outbox = CountedOutbox(rate=5.0, latency=0.1)
    groups = [f"group-{n}" for n in range(30)]
    notices: dict[str, float] = {}

    async def main() -> None:
        loop = asyncio.get_running_loop()
        for step in range(80):
            for group in groups:
                await outbox(table_state(group, step))
            if step % 4 == 0:
                user = f"user-{step}"
                notices[user] = loop.time()
                await outbox(turn_notice(user))
            await asyncio.sleep(1.5)
        await until_sent(outbox)

    run_virtual(main())
    shown: dict[str, int] = {}
    for call in outbox.calls:
        if call.message.kind == Kind.TABLE:
            found = re.findall(r"table (\d+)", call.message.text)
            shown[call.message.chat] = int(found[-1])
    assert shown == dict.fromkeys(groups, 79)  # every group ends on its latest state
    table_calls = sum(1 for c in outbox.calls if c.message.kind == Kind.TABLE)
    assert table_calls < 30 * 80 / 2  # most states were dropped for newer ones
    waited = [c.at - notices[c.key] for c in outbox.calls if c.key in notices]
    assert len(waited) == 20 and max(waited) <= 1.0  # the notices never queued behind tables


def test_a_watchers_membership_check_waits_behind_everything_and_is_asked_once():
    """Issue 51, item 5: 40 opens of a web page by one watcher ask the group once (the
    answer is shared, then remembered for minutes), and that one call is granted only after
    every table's call waiting at the same moment."""
    now = [0.0]
    budget = SendBudget(rate=2.0, clock=lambda: now[0], timers=False)
    granted: list[str] = []
    asked: list[tuple[str, str]] = []

    async def ask(chat: str, user: str) -> bool:
        granted.append("membership")
        asked.append((chat, user))
        return True

    async def table_call(number: int) -> None:
        await budget.call(Priority.TABLE)
        granted.append(f"table {number}")

    async def main() -> None:
        memberships = Memberships(ask, lambda: budget, clock=lambda: now[0])
        await budget.call(Priority.OTHER)
        await budget.call(Priority.OTHER)  # the burst is spent: calls wait their turn
        opens = [asyncio.ensure_future(memberships.is_member("-1", "7")) for _ in range(40)]
        await asyncio.sleep(0)
        tables = [asyncio.ensure_future(table_call(n)) for n in range(3)]
        await asyncio.sleep(0)
        while not all(o.done() for o in opens):
            now[0] += 0.5
            budget.pump()
            await asyncio.sleep(0)
        await asyncio.gather(*tables)
        assert all(o.result() for o in opens)
        assert granted == ["table 0", "table 1", "table 2", "membership"]
        now[0] += KEEP_SECONDS - 10  # still remembered: no second call
        assert await memberships.is_member("-1", "7")
        assert asked == [("-1", "7")]
        now[0] += 20  # forgotten: asked again
        budget.pump()
        assert await memberships.is_member("-1", "7")
        assert len(asked) == 2

    asyncio.run(main())
