"""Figures an operator graphs and alerts on, in Prometheus's text format at ``GET /metrics``
(``BOT_METRICS=on``; `adapters.health`).

Labelled by platform and game, never by chat: a label per group would make a series per
group, and a thousand groups would be a thousand series of each figure. What is counted:

- ``cardbot_tables_open{platform,game}``: tables in this process's memory, read at scrape;
- ``cardbot_actions_total{platform,game}``: actions stored (players', AI seats', time-outs);
- ``cardbot_refusals_total{platform,game}``: players' moves the rules refused;
- ``cardbot_step_errors_total{platform,game}``: table steps that raised and were contained;
- ``cardbot_group_calls_total{platform}``: calls made to groups, each counted against its
  group's budget (Telegram: 20 a minute);
- ``cardbot_budget_wait_seconds{platform,budget}``: how long a call waited for a budget —
  ``group`` (a group's one-minute budget), ``bot`` (the bot-wide send budget, by priority:
  `adapters.send_budget`) or ``library`` (python-telegram-bot's own limiter behind it, and
  the waits a 429 asks for);
- ``cardbot_ai_decision_seconds{game,level}``: one AI seat's decision;
- ``cardbot_ai_lowered_total{game,budget}``: ``hard`` decisions made with less than their
  budget because the AI workers were full — ``1/2``, ``1/4``, ``1/8`` of it, or ``normal``
  (the normal level's choice, at once); ``cardbot_ai_cut_total{game}``: searches a
  worker's deadline ended (`bot.ai_seats.worker_pool`);
- ``cardbot_storage_commit_seconds{backend}``: one transaction, from its first write to its
  commit;
- and the process's own (memory, CPU, open files) from prometheus_client.
"""

from __future__ import annotations

import time
from collections import Counter as Tally
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector

from bot.ops.logs import platform_of

# No ``*_created`` series beside each counter and histogram: half the lines, no use here.
disable_created_metrics()  # type: ignore[no-untyped-call]
REGISTRY = CollectorRegistry()
"""This process's figures (its own registry: nothing a library registers by default)."""
ProcessCollector(registry=REGISTRY)
PlatformCollector(registry=REGISTRY)
CONTENT_TYPE = CONTENT_TYPE_LATEST

SECONDS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
WAITS = (0.01, 0.1, 0.5, 1.0, 3.0, 5.0, 10.0, 20.0, 30.0, 60.0)

ACTIONS = Counter(
    "cardbot_actions",
    "Actions stored (players', AI seats', time-outs).",
    ["platform", "game"],
    registry=REGISTRY,
)
REFUSALS = Counter(
    "cardbot_refusals", "Players' moves the rules refused.", ["platform", "game"], registry=REGISTRY
)
STEP_ERRORS = Counter(
    "cardbot_step_errors",
    "Table steps that raised and were contained.",
    ["platform", "game"],
    registry=REGISTRY,
)
GROUP_CALLS = Counter(
    "cardbot_group_calls",
    "Calls made to groups, against their budget.",
    ["platform"],
    registry=REGISTRY,
)
BUDGET_WAIT = Histogram(
    "cardbot_budget_wait_seconds",
    "How long a call waited for a budget.",
    ["platform", "budget"],
    buckets=WAITS,
    registry=REGISTRY,
)
AI_DECISION = Histogram(
    "cardbot_ai_decision_seconds",
    "One AI seat's decision.",
    ["game", "level"],
    buckets=SECONDS,
    registry=REGISTRY,
)
AI_LOWERED = Counter(
    "cardbot_ai_lowered",
    "Hard decisions made with less than their budget.",
    ["game", "budget"],
    registry=REGISTRY,
)
AI_CUT = Counter(
    "cardbot_ai_cut", "AI searches a worker's deadline ended.", ["game"], registry=REGISTRY
)
STORAGE_COMMIT = Histogram(
    "cardbot_storage_commit_seconds",
    "One transaction, from its first write to its commit.",
    ["backend"],
    buckets=SECONDS,
    registry=REGISTRY,
)


class OpenTables(Collector):
    """``cardbot_tables_open``, counted from the table managers' memory when scraped."""

    def __init__(self) -> None:
        self.sources: list[Callable[[], Iterable[tuple[str, str]]]] = []

    def collect(self) -> Iterator[Metric]:
        family = GaugeMetricFamily(
            "cardbot_tables_open", "Tables open in this process.", labels=["platform", "game"]
        )
        counted: Tally[tuple[str, str]] = Tally()
        for source in self.sources:
            counted.update((platform_of(chat), game) for chat, game in source())
        for (platform, game), count in sorted(counted.items()):
            family.add_metric([platform, game], count)
        yield family


TABLES_OPEN = OpenTables()
REGISTRY.register(TABLES_OPEN)


def watch_tables(source: Callable[[], Iterable[tuple[str, str]]]) -> Callable[[], None]:
    """Count the (chat, game) pairs ``source`` gives in ``cardbot_tables_open``; returns
    what stops counting them."""
    TABLES_OPEN.sources.append(source)
    return lambda: TABLES_OPEN.sources.remove(source)


def stored(chat: str, game: str, actions: int) -> None:
    if actions:
        ACTIONS.labels(platform_of(chat), game).inc(actions)


def refused(chat: str, game: str) -> None:
    REFUSALS.labels(platform_of(chat), game).inc()


def step_failed(chat: str, game: str | None) -> None:
    STEP_ERRORS.labels(platform_of(chat), game or "none").inc()


def group_call(platform: str) -> None:
    GROUP_CALLS.labels(platform).inc()


def waited(platform: str, budget: str, seconds: float) -> None:
    BUDGET_WAIT.labels(platform, budget).observe(seconds)


@contextmanager
def deciding(game: str, level: str) -> Iterator[None]:
    """Times an AI decision made inside the block."""
    began = time.perf_counter()
    try:
        yield
    finally:
        AI_DECISION.labels(game, level).observe(time.perf_counter() - began)


def ai_lowered(game: str, budget: str) -> None:
    AI_LOWERED.labels(game, budget).inc()


def ai_cut(game: str) -> None:
    AI_CUT.labels(game).inc()


def committed(backend: str) -> Callable[[float], None]:
    """What a store calls with each transaction's time (`storage.base.Database.time_commits`)."""
    return STORAGE_COMMIT.labels(backend).observe


def scraped() -> bytes:
    """Every figure, in Prometheus's text format."""
    return generate_latest(REGISTRY)
