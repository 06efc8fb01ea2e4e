"""The AI seats' decisions: the player of each game and level (one per level and share of the
budget; they keep no state between decisions), a slow level's decision made by the AI workers off
the event loop with its deadline, and whether a decision that came back still fits the table."""

from __future__ import annotations

import math
import time
from typing import Any

from bot.ai_seats.slow_decisions import SLOW_LEVELS, Decision
from bot.ai_seats.worker_pool import FLOOR, Job
from bot.table.state import PLAYING, Table
from engine.actions import Action
from engine.ai import Player, player

_PLAYERS: dict[tuple[str, str, float], Player] = {}
"""One AI player per game, level and share of the budget: they keep no state between
decisions."""


HARD_SEARCH: dict[str, Any] = {}
"""Search options of the ``hard`` players (`engine.ai.player`); none: each searches its
game's sampled deals (``work_playouts``), with no time limit — CPU work, not wall time, so
it plays as strong under load. The tests fix fewer playouts here (tests/conftest.py)."""


def ai_player(game: str, level: str, share: float = 1.0) -> Player:
    """The AI player of ``game`` at ``level``; a search level gets ``share`` of its budget
    (`bot.ai_seats.worker_pool` lowers it when the workers cannot keep up)."""
    found = _PLAYERS.get((game, level, share))
    if found is None:
        search = _search_options(game, level, share) if level in SLOW_LEVELS else {}
        found = _PLAYERS[(game, level, share)] = player(game, level, **search)
    return found


def _search_options(game: str, level: str, share: float) -> dict[str, Any]:
    search = dict(HARD_SEARCH)
    if "playouts" not in search:  # the budget is CPU work: no time limit
        search.setdefault("budget", math.inf)
        search["playouts"] = getattr(player(game, level), "work_playouts", 1)
    search["playouts"] = max(1, round(search["playouts"] * share))
    return search


def decide_job(job: Job) -> tuple[Action, float]:
    """An AI worker's decision (`bot.ai_seats.worker_pool`), and the seconds it took. Past the
    job's deadline the search stops where it is (and one asked after it plays ``normal``)."""
    started = time.perf_counter()
    deadline = job.deadline
    if deadline is not None and time.monotonic() >= deadline:
        action = ai_player(job.game, FLOOR).decide(job.view, job.legal)
        return action, time.perf_counter() - started
    deciding = ai_player(job.game, job.level, job.share)
    if deadline is not None and hasattr(deciding, "clock"):
        # A player of its own whose search clock stands still until the deadline, then reads
        # infinity: the playouts end the search as ever, the deadline at the latest.
        search = _search_options(job.game, job.level, job.share)
        search["clock"] = lambda: 0.0 if time.monotonic() < deadline else math.inf
        deciding = player(job.game, job.level, **search)
    action = deciding.decide(job.view, job.legal)
    return action, time.perf_counter() - started


def slow_decision(table: Table) -> Decision | None:
    """The decision a due tick would ask of a slow AI seat (`bot.ai_seats.slow_decisions`), else
    None."""
    seat, hand = table.turn_seat, table.hand
    if table.state != PLAYING or hand is None or seat is None or table.safe_mode:
        return None
    occupant = table.seats[seat]
    if occupant is None or not occupant.ai or occupant.level not in SLOW_LEVELS:
        return None
    legal = tuple(hand.legal_actions(seat))  # listed now: the hand may change meanwhile
    return Decision(
        table.chat,
        table.hand_number,
        table.turn_count,
        seat,
        table.game,
        occupant.level,
        hand.view(seat),
        legal,
    )


def still_current(decision: Decision, table: Table) -> bool:
    """Whether a slow AI seat's decision that came back still fits the table: the same hand,
    turn and seat, and nothing since has stopped the hand or put the table aside."""
    return (
        table.hand is not None
        and not table.hand.over
        and not table.safe_mode
        and not table.paused
        and table.hand_number == decision.hand
        and table.turn_count == decision.turn
        and table.turn_seat == decision.seat
    )
