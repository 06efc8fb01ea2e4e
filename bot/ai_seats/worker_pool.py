"""The workers that make search-level AI decisions (``hard``): a pool of processes sized to
the machine (``BOT_AI_WORKERS``, default the cores less one), so that tables thinking at
once think on every core, not in turn under one interpreter lock; 0 decides in one thread
of this process (the tests and the console).

A worker gets a `Job`: the game, the level, the share of the level's budget, the seat's view
and its legal actions — nothing of another seat's cards — and returns the action and the
seconds it took. A decision's budget is CPU work (sampled deals, `bot.table.ai_turns.ai_player`),
not wall time, so the level plays as strong however busy the machine is.

When the workers cannot keep up, a decision asked now would wait behind the others. Before
handing a job on, `AiWorkers.decide` reckons how long its table would wait for it — the
seconds of work already handed on and not back, spread over the workers, plus its own — and
lowers the budget a step at a time (a half, a quarter, an eighth of it) until that fits
`WAIT_TARGET`; when not even an eighth fits, or when every worker already has
`HANDED_PER_WORKER` jobs, the seat plays the ``normal`` level's choice at once, in this process
(well under a millisecond). Each lowered decision is counted
(`lowered`, for the metrics) and summed up in one INFO line a minute at most.

The workers end with the bot, however it ends (`parent_bound_pool`): each holds the reading
end of a pipe whose only writing end is the bot's, and leaves as soon as that pipe closes —
a ``kill -9`` of the bot included, which closes it in the kernel. Without this, the workers
(and multiprocessing's resource tracker, which waits for them) stayed behind under PID 1.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from bot.ops import metrics
from engine.actions import Action

log = logging.getLogger(__name__)
SHARES = (1.0, 0.5, 0.25, 0.125)
"""The budgets a decision may get, a share of the level's, largest first."""
FLOOR = "normal"
"""The level a seat plays when not even the smallest share fits: decided at once."""
WAIT_TARGET = 1.2
"""Seconds a table may be reckoned to wait for its AI move, the work ahead of its decision
and its own: the `DEADLINE`, since a search that would run past it is ended there anyway. An
idle pool so gives every decision its whole budget; a busy one gives a decision the share
that can end before the deadline."""
HANDED_PER_WORKER = 4
"""Jobs handed on and not back, per worker, past which a decision plays ``normal`` at once
whatever the reckoning says. The reckoning learns from the decisions that came back, and at
the end of a hand most take no time (one card left to play): at 1,000 tables it once
reckoned a search at nothing and handed on 957 jobs at the next deal, which then waited
15 s in the queue. With this bound a job waits behind at most a few others, each ended by its
own `DEADLINE`, so a table's wait is bounded by its deadline whatever the reckoning."""
FIRST_GUESS = 1.0
"""Seconds a full-budget decision is reckoned to take before one has come back: a 四团
search's time budget was 0.3 s on a quiet core, but a busy machine takes longer, and the
first decisions of a start, all asked at once, must not queue past the target."""
KEPT = 100
"""Decisions that came back whose cost is kept, per game and level."""
RECKONED_SHARE = 0.5
"""A decision is reckoned to cost what half of the last ones cost at most (the median). The
long ones — a contested 二七王 play takes its further budgets, 2 to 9 s on a 2-core machine
where most plays take 0.2 s — are ended by `DEADLINE`, which bounds what each adds to the
others' wait (`reckoned`) and `HANDED_PER_WORKER` how many wait. Reckoned at nine in ten,
a few of them lowered nearly every decision even on an idle machine: 92 of 112 二七王
decisions at two tables played ``normal``."""
DEADLINE = 1.2
"""Seconds from a decision being asked to its search being cut short, whatever its share:
the reckoning is an estimate (a search may end at once or take all its playouts, and a
busy machine runs them slower), this is the bound — under the issue's 2 s (p99), the rest
kept for storing the move once it is back (a commit may wait behind the other tables'). A
worker process only: in this process (the tests, the console) the playouts alone end a
search, the same on every run."""
HINT_DEADLINE = 0.9
"""Seconds from a hint being asked to its search being cut short, in a worker. The person
waits for it (no table does), at most 1 s (issue 55's p99): the playout in progress when the
search is cut and the answer's way back take the last tenth — cut at 1.0 s, 二七王's hints
came at 1,002 ms at p90 and p99."""
ROUNDING = 1e-9
"""Seconds a reckoned wait may exceed the target by: the rounding of sums, not a wait."""
REPORT_EVERY = 60.0
"""Seconds between INFO lines about lowered decisions (only when some were)."""


@dataclass(frozen=True)
class Job:
    """What a worker is given: picklable, and only what the seat may know."""

    game: str
    level: str
    share: float
    view: Any
    legal: tuple[Action, ...]
    deadline: float | None = None
    """`time.monotonic` (one clock for every process of the machine) at which the search
    stops, its playouts done or not (None: none)."""


@dataclass(frozen=True)
class Share:
    """The share of its budget a decision got, and the seconds it was reckoned to take."""

    share: float
    reckoned: float
    asked: float
    """`time.monotonic` when it was asked."""


Kind = tuple[str, str, str]
"""A game, a level and a phase: decisions whose cost is reckoned together."""


def phase_of(view: Any) -> str:
    """The phase of the hand a view shows (bidding, burying, playing…): ``""`` if none."""
    return str(getattr(view, "phase", ""))


Decide = Callable[[Job], tuple[Action, float]]
"""Makes a job's decision; returns it and the seconds it took (run in a worker)."""


def _started_worker(module: str, parent: Connection | None = None) -> None:
    """A worker leaves Ctrl-C to the bot, which shuts it down in order, ends when the bot's
    end of ``parent`` closes, and loads ``module`` (the players) before its first job."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if parent is not None:
        threading.Thread(target=_end_with_parent, args=(parent,), daemon=True).start()
    importlib.import_module(module)


def _end_with_parent(parent: Connection) -> None:
    """Wait for the parent's end of the pipe to close (nothing is ever sent), then end this
    process at once, whatever it is doing: its parent is gone, no one wants its answer."""
    with contextlib.suppress(EOFError, OSError):
        parent.recv_bytes()
    os._exit(0)


class ParentBoundPool(ProcessPoolExecutor):
    """A process pool (spawned: no fork of a threaded event loop) whose workers end with this
    process: each is started holding the reading end of `alive`, whose writing end only this
    process holds; closing the pool closes it too."""

    def __init__(self, workers: int, module: str) -> None:
        reader, self.alive = multiprocessing.Pipe(duplex=False)
        super().__init__(
            workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_started_worker,
            initargs=(module, reader),
        )
        self._reader = reader  # kept until the workers have their copies (spawned lazily)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        super().shutdown(wait=wait, cancel_futures=cancel_futures)
        self._reader.close()
        if wait:  # else the workers end on the shutdown's word, or with this process
            self.alive.close()


def parent_bound_pool(workers: int, module: str) -> ProcessPoolExecutor:
    """``workers`` processes that load ``module`` and end when this process ends."""
    return ParentBoundPool(workers, module)


def _ready() -> None:
    """A job that only makes sure its worker has started."""


class AiWorkers:
    """Hands search-level decisions to the workers, each with the budget that keeps its
    table's wait within `WAIT_TARGET`."""

    def __init__(
        self,
        decide: Decide,
        workers: int = 0,
        *,
        executor: Executor | None = None,
        clock: Callable[[], float] = time.monotonic,
        first_guess: float = FIRST_GUESS,
        wait_target: float = WAIT_TARGET,
    ) -> None:
        self.decide_job = decide
        """The function a worker runs (module-level: it is sent to other processes)."""
        self.workers = workers
        self.capacity = max(1, workers)
        """Decisions made at once (0 workers: one thread)."""
        self._executor = executor
        self.clock = clock
        self.wait_target = wait_target
        self.first_guess = first_guess
        self.cost: dict[Kind, float] = {}
        """(game, level, phase) → reckoned seconds of a full-budget decision: by phase, as
        a bid is decided at once and a play searched (`phase_of`)."""
        self.costs: dict[Kind, deque[float]] = {}
        """(game, level, phase) → seconds of the last decisions, each per full budget."""
        self.pending = 0.0
        """Reckoned seconds of the work handed on and not back."""
        self.handed = 0
        """Jobs handed on and not back (`HANDED_PER_WORKER`)."""
        self.decisions = 0
        """Decisions asked (for the metrics)."""
        self.lowered: Counter[str] = Counter()
        """Decisions made with less than the full budget, by what they got (``1/2``, ``1/4``,
        ``1/8``, ``normal``): for the metrics."""
        self.cut = 0
        """Decisions whose search the deadline ended (`DEADLINE`): for the metrics."""
        self._reported: Counter[str] = Counter()
        self._reported_at = float("-inf")  # the first lowered decision is told at once

    def executor(self) -> Executor:
        if self._executor is None:
            if self.workers > 0:
                self._executor = parent_bound_pool(self.workers, self.decide_job.__module__)
            else:
                self._executor = ThreadPoolExecutor(1, thread_name_prefix="ai-thinking")
        return self._executor

    async def warm(self) -> None:
        """Start every worker process now (seconds each: an interpreter and the players
        loaded), not when the first decisions would wait for it."""
        if self.workers == 0:
            return
        loop = asyncio.get_running_loop()
        executor = self.executor()
        await asyncio.gather(*(loop.run_in_executor(executor, _ready) for _ in range(self.workers)))

    def share_for(self, game: str, level: str, phase: str = "") -> float | None:
        """The largest share of the budget whose reckoned wait fits (None: none does, or
        the workers hold as many jobs as they may)."""
        if self.handed >= self.capacity * HANDED_PER_WORKER:
            return None
        full = self.cost.get((game, level, phase), self.first_guess)
        for share in SHARES:
            wait = (self.pending + self.reckoned(full * share)) / self.capacity
            if wait <= self.wait_target + ROUNDING:
                return share
        return None

    def reckoned(self, seconds: float) -> float:
        """What a decision reckoned at ``seconds`` adds to the wait of those after it: in a
        worker, at most its `DEADLINE`, which ends it."""
        return min(seconds, DEADLINE) if self.workers > 0 else seconds

    def reserve(self, game: str, level: str, view: Any) -> Share | None:
        """The share of its budget a decision asked now gets, its reckoned seconds counted
        in the wait of those asked after it until it comes back; None: no share fits, and
        the decision is counted as played at the ``normal`` level, which the caller plays
        at once (the timers: with the other tables acting in the same pass)."""
        self.decisions += 1
        phase = phase_of(view)
        share = self.share_for(game, level, phase)
        if share is None:
            self._count_lowered(game, FLOOR)
            return None
        if share < 1.0:
            self._count_lowered(game, f"1/{round(1 / share)}")
        reckoned = self.reckoned(self.cost.get((game, level, phase), self.first_guess) * share)
        self.pending += reckoned
        self.handed += 1
        return Share(share, reckoned, time.monotonic())

    async def decide(
        self,
        game: str,
        level: str,
        view: Any,
        legal: tuple[Action, ...],
        share: Share | None = None,
    ) -> Action:
        """The seat's action, decided by a worker with the ``share`` reserved for it (none
        given: reserved now), or at once at the ``normal`` level when none fits."""
        if share is None:
            share = self.reserve(game, level, view)
            if share is None:
                action, _ = self.decide_job(Job(game, FLOOR, 1.0, view, legal))
                return action
        loop = asyncio.get_running_loop()
        try:
            deadline = share.asked + DEADLINE if self.workers > 0 else None
            job = Job(game, level, share.share, view, legal, deadline)
            action, seconds = await loop.run_in_executor(self.executor(), self.decide_job, job)
        finally:
            self.handed -= 1
            # Nothing in flight is nothing pending, whatever the sums' rounding left.
            self.pending = max(0.0, self.pending - share.reckoned) if self.handed else 0.0
        if deadline is not None and time.monotonic() >= deadline:
            self.cut += 1  # what it would have cost is unknown: at least all it was given
            metrics.ai_cut(game)
            seconds = max(seconds, DEADLINE)
        self._learn((game, level, phase_of(view)), seconds / share.share)
        return action

    async def consult(
        self,
        consult: Callable[[Job], Any],
        game: str,
        level: str,
        view: Any,
        legal: tuple[Action, ...],
    ) -> Any:
        """What ``consult`` (module-level: it is sent to the workers) makes of a decision
        asked for a person rather than a seat — a hint (`bot.hosting.hinting`): always the level's
        whole budget, since a hint is the level's own choice, never a lowered one; its
        reckoned cost counts in the wait of the seats' decisions asked meanwhile."""
        reckoned = self.reckoned(self.cost.get((game, level, phase_of(view)), self.first_guess))
        self.pending += reckoned
        self.handed += 1
        asked = time.monotonic()
        try:
            deadline = asked + HINT_DEADLINE if self.workers > 0 else None
            job = Job(game, level, 1.0, view, legal, deadline)
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self.executor(), consult, job)
        finally:
            self.handed -= 1
            self.pending = max(0.0, self.pending - reckoned) if self.handed else 0.0

    def _learn(self, kind: Kind, seconds: float) -> None:
        kept = self.costs.setdefault(kind, deque(maxlen=KEPT))
        kept.append(seconds)
        ranked = sorted(kept)
        self.cost[kind] = ranked[min(len(ranked) - 1, int(len(ranked) * RECKONED_SHARE))]

    def _count_lowered(self, game: str, what: str) -> None:
        self.lowered[what] += 1
        metrics.ai_lowered(game, what)
        now = self.clock()
        if now - self._reported_at < REPORT_EVERY:
            return
        since = self.lowered - self._reported
        self._reported, self._reported_at = Counter(self.lowered), now
        shown = ", ".join(f"{count} at {what}" for what, count in sorted(since.items()))
        log.info(
            "AI workers saturated: %d decisions lowered since the last report (%s)",
            since.total(),
            shown,
        )

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
