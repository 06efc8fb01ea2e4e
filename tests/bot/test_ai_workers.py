"""Issue 41, item 1: search-level AI decisions in a pool of workers, their budget CPU work;
when the workers cannot keep up, each decision's budget is lowered a step at a time down to
the ``normal`` level, so that no table waits long for an AI move, and each lowered decision
is counted (and told in one INFO line a minute at most).

The decisions here are fake and slow: held at a gate until the test opens it, each job
counted, so what the pool chooses depends on nothing but what the test asked."""

from __future__ import annotations

import asyncio
import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from adapters.startup import StartupError
from bot.ai_seats.worker_pool import DEADLINE, AiWorkers, Job
from bot.ops import metrics
from bot.ops.config import load
from bot.table import ai_turns
from bot.table.state import PLAYING
from engine import game_of
from engine.actions import Action, Pass
from tests.bot.harness import FakeClock, Harness
from tests.waiting import eventually


class SlowDecisions:
    """A fake decision: a search-level job waits at the gate and then says it took
    ``seconds`` per full budget; a ``normal`` one answers at once. Every job is kept; the
    action is the normal player's (`choice`)."""

    def __init__(self, seconds: float = 1.0) -> None:
        self.seconds = seconds
        self.gate = threading.Event()
        self.jobs: list[Job] = []
        self.started = 0

    def __call__(self, job: Job) -> tuple[Action, float]:
        self.jobs.append(job)
        if job.level != "normal":
            self.started += 1
            assert self.gate.wait(10), "the test never opened the gate"
        return self.choice(job), self.seconds * job.share if job.level != "normal" else 0.0

    @staticmethod
    def choice(job: Job) -> Action:
        """At a table, the normal player's choice; in the unit tests (no legal actions, the
        view a number) a pass by seat ``view``."""
        if not job.legal:
            return Pass(job.view)
        return ai_turns.ai_player(job.game, "normal").decide(job.view, job.legal)

    def asked(self) -> list[tuple[str, float]]:
        return [(job.level, job.share) for job in self.jobs]


def pool(decisions: SlowDecisions, workers: int = 1, **options: Any) -> AiWorkers:
    executor = ThreadPoolExecutor(max(1, workers))  # the fake cannot cross to a process
    return AiWorkers(decisions, workers, executor=executor, **options)


async def asked_at_once(workers: AiWorkers, count: int) -> list[asyncio.Task[Action]]:
    """``count`` tables ask a decision one after the other; the budget of each is chosen
    when it is asked, before the first await."""
    tasks = []
    for seat in range(count):
        tasks.append(asyncio.ensure_future(workers.decide("situan", "hard", seat, ())))
        await asyncio.sleep(0)  # the task runs up to its wait for a worker
    return tasks


def lowered_metric(budget: str) -> float:
    """``cardbot_ai_lowered_total`` for 四团 and ``budget``, as ``/metrics`` would show it."""
    found = metrics.REGISTRY.get_sample_value(
        "cardbot_ai_lowered_total", {"game": "situan", "budget": budget}
    )
    return found or 0.0


async def test_a_saturated_pool_lowers_the_budget_step_by_step_down_to_normal():
    decisions = SlowDecisions()
    workers = pool(decisions, first_guess=1.0, wait_target=1.9)
    before = {budget: lowered_metric(budget) for budget in ("1/2", "1/4", "1/8", "normal")}
    try:
        tasks = await asked_at_once(workers, 6)
        # The first takes the whole budget (1 s reckoned); each next would wait behind the
        # work handed on, so it gets half, a quarter, an eighth; then nothing fits in 1.9 s
        # and the seat plays the normal level's choice at once, without waiting.
        assert [t.done() for t in tasks] == [False, False, False, False, True, True]
        assert [t.result() for t in tasks[4:]] == [Pass(4), Pass(5)]
        assert workers.lowered == {"1/2": 1, "1/4": 1, "1/8": 1, "normal": 2}
        assert workers.decisions == 6
        grown = {budget: lowered_metric(budget) - was for budget, was in before.items()}
        assert grown == {"1/2": 1, "1/4": 1, "1/8": 1, "normal": 2}
        await eventually(lambda: decisions.started == 1, what="the first job at its worker")
        decisions.gate.set()
        assert [await t for t in tasks[:4]] == [Pass(seat) for seat in range(4)]
        hard = [(j.view, j.share) for j in decisions.jobs if j.level == "hard"]
        assert hard == [(0, 1.0), (1, 0.5), (2, 0.25), (3, 0.125)]
        # All back: the pool is idle, and the next decision gets the whole budget again.
        assert workers.pending == 0.0
        assert workers.share_for("situan", "hard") == 1.0
    finally:
        decisions.gate.set()
        workers.close()


async def test_the_reckoned_cost_follows_what_decisions_take_and_more_workers_take_more():
    decisions = SlowDecisions(seconds=0.1)  # a full decision says it took 0.1 s
    decisions.gate.set()
    workers = pool(decisions, workers=3, first_guess=1.0, wait_target=1.5)
    try:
        for seat in range(30):
            await workers.decide("situan", "hard", seat, ())
        assert workers.cost[("situan", "hard", "")] == 0.1  # half of them took 0.1 s at most
        assert workers.lowered == {}
        # Three workers at 0.5 s a decision: 1.5 s of waiting is 4.5 s of work, 9
        # decisions handed on (one worker would take 3); the 10th plays at once.
        workers.cost[("situan", "hard", "")] = 0.5
        decisions.gate.clear()
        tasks = await asked_at_once(workers, 10)
        assert [t.done() for t in tasks] == [False] * 9 + [True]
        assert workers.lowered == {"normal": 1}
        decisions.gate.set()
        await asyncio.gather(*tasks)
    finally:
        decisions.gate.set()
        workers.close()


async def test_the_workers_hold_a_few_jobs_each_however_cheap_the_reckoning_says_they_are():
    """At the end of a hand most decisions take no time (one card left), and the reckoning
    learns that a search costs nothing: the jobs handed on are still bounded, four a worker,
    and the next table plays normal at once instead of queueing behind them."""
    decisions = SlowDecisions(seconds=0.0)
    decisions.gate.set()
    workers = pool(decisions, workers=3, first_guess=1.0, wait_target=1.5)
    try:
        for seat in range(10):
            await workers.decide("situan", "hard", seat, ())
        assert workers.cost[("situan", "hard", "")] == 0.0
        decisions.gate.clear()
        tasks = await asked_at_once(workers, 13)
        assert [t.done() for t in tasks] == [False] * 12 + [True]
        assert workers.handed == 12
        assert workers.lowered == {"normal": 1}
        decisions.gate.set()
        await asyncio.gather(*tasks)
        assert workers.handed == 0
        assert workers.share_for("situan", "hard") == 1.0
    finally:
        decisions.gate.set()
        workers.close()


async def test_a_few_long_searches_lower_no_decision_on_an_idle_pool():
    """Most decisions take 0.1 s and one in five takes 9 s (a contested play's further
    budgets): the reckoning takes the median, so an idle pool gives each its whole budget,
    and a search reckoned long adds to the wait of the next only what its deadline lets it
    run."""
    decisions = SlowDecisions()
    decisions.gate.set()
    workers = pool(decisions, first_guess=1.0)  # the bot's wait target: the deadline
    try:
        for seat in range(20):
            decisions.seconds = 9.0 if seat % 5 == 0 else 0.1
            await workers.decide("situan", "hard", seat, ())
        assert workers.cost[("situan", "hard", "")] == 0.1
        assert workers.lowered == {}
        workers.cost[("situan", "hard", "")] = 9.0  # as if most were long
        decisions.gate.clear()
        tasks = await asked_at_once(workers, 2)
        # The first gets its whole budget (the deadline ends it), counted as the deadline's
        # 1.2 s in the wait; nothing fits after it, and the second plays normal at once.
        assert workers.pending == DEADLINE
        assert [t.done() for t in tasks] == [False, True]
        assert workers.lowered == {"normal": 1}
        decisions.gate.set()
        await asyncio.gather(*tasks)
        assert [j.share for j in decisions.jobs if j.level == "hard"][-1] == 1.0
    finally:
        decisions.gate.set()
        workers.close()


async def test_lowered_decisions_are_told_at_info_once_a_minute_at_most(caplog):
    clock = FakeClock(0.0)
    decisions = SlowDecisions()
    # Nothing fits in 0.1 s, not even an eighth of a search that its deadline ends: all normal.
    workers = pool(decisions, first_guess=100.0, clock=clock, wait_target=0.1)
    caplog.set_level(logging.INFO, logger="bot.ai_seats.worker_pool")
    try:
        for seconds in (0, 10, 30, 61, 62):
            clock.now = seconds
            await workers.decide("erqiwang", "hard", 0, ())
        lines = [r.getMessage() for r in caplog.records if r.name == "bot.ai_seats.worker_pool"]
        assert lines == [
            "AI workers saturated: 1 decisions lowered since the last report (1 at normal)",
            "AI workers saturated: 3 decisions lowered since the last report (3 at normal)",
        ]
        assert workers.lowered == {"normal": 5} and decisions.started == 0
    finally:
        workers.close()


async def test_a_table_whose_ai_would_wait_too_long_moves_at_once(tmp_path: Path):
    """Three tables of hard AI seats, one worker, each decision reckoned at 1 s and a table
    allowed 1.5 s of waiting: the first two tables think at their worker (a full budget,
    then half), the third table's seat
    plays the normal choice in the same timer pass, stored with the other tables acting in
    it, never handed to a worker; all three move."""
    harness = await Harness.open(str(tmp_path / "pool.sqlite3"), FakeClock(), seed=3)
    decisions = SlowDecisions()
    workers = harness.manager.thinking.workers = pool(decisions, first_guess=1.0, wait_target=1.5)
    chats = ["group-a", "group-b", "group-c"]
    try:
        for chat in chats:
            await harness.say("ann", "/new erqiwang", chat=chat, lang="en")
            for _ in range(3):
                await harness.say("ann", "/addbot hard", chat=chat)
            await harness.say("ann", "/start", chat=chat)
            await harness.say("ann", "/bid 120", chat=chat)  # AI 1 is to act next
        turns = {chat: harness.table(chat).turn_count for chat in chats}
        harness.clock.advance(5)
        await harness.manager.tick()
        assert not harness.manager.thinking.busy("group-c")
        assert harness.table("group-c").turn_count > turns["group-c"]  # moved, not waiting
        assert all(harness.manager.thinking.busy(chat) for chat in chats[:2])
        assert workers.lowered == {"1/2": 1, "normal": 1}
        decisions.gate.set()
        await harness.manager.thinking.settle()
        assert [(job.level, job.share) for job in decisions.jobs] == [("hard", 1.0), ("hard", 0.5)]
        assert all(harness.table(chat).turn_count > turns[chat] for chat in chats)
        assert all(harness.table(chat).state == PLAYING for chat in chats)
    finally:
        decisions.gate.set()
        await harness.db.close()
        workers.close()


def test_a_worker_process_decides_from_the_seats_view_as_this_process_would(monkeypatch):
    """The job crosses to a process of its own (pickled: the view and the legal actions)
    and comes back with the action this process would choose at the same budget."""
    monkeypatch.setattr(ai_turns, "HARD_SEARCH", {})  # the bot's own budget: CPU work
    monkeypatch.setattr(ai_turns, "_PLAYERS", {})
    game = game_of("situan")
    hand = game.deal(game.rules(), seed=5)
    while hand.phase != "play":
        seat = hand.to_act
        hand.apply(
            ai_turns.ai_player("situan", "normal").decide(hand.view(seat), hand.legal_actions(seat))
        )
    seat = hand.to_act
    job = Job("situan", "hard", 0.25, hand.view(seat), tuple(hand.legal_actions(seat)))
    workers = AiWorkers(ai_turns.decide_job, 1)

    async def asked() -> Action:
        return await workers.decide(job.game, job.level, job.view, job.legal)

    try:
        action = asyncio.run(asked())
    finally:
        workers.close()
    assert action == ai_turns.decide_job(job)[0]
    assert action in job.legal


def test_bot_ai_workers_is_read_and_checked():
    assert load({}).ai_workers >= 1
    assert load({"BOT_AI_WORKERS": "0"}).ai_workers == 0
    assert load({"BOT_AI_WORKERS": " 6 "}).ai_workers == 6
    for bad in ("-1", "two", "1.5", "5000"):
        with pytest.raises(StartupError, match=r"BOT_AI_WORKERS=.*say a number of processes"):
            load({"BOT_AI_WORKERS": bad})
