"""The ``hard`` players: determinized sampling over the hidden cards (perfect-information
Monte Carlo, as in bridge and skat programs), and the decision they share.

A decision is made from the seat's view alone. Each iteration deals the cards this seat has not
seen to the other hands (and, in 四团, the bottom; in 二七王, for a defender, the declarer's
buried cards) consistently with what is public, builds an engine hand in the same state, and
plays every candidate action out to the end with the ``normal`` player in all four seats. The
candidate with the best average result for this seat's side is chosen; the ``normal`` player's
own choice wins ties and is what is played when there is nothing to weigh.

This module is the budget and the choice: every candidate played out on the same sampled
deals, for as long as the budget allows, and the ``normal`` player's choice kept unless
another clearly beats it. What a sampled deal is (`engine.ai.situan.sampling`,
`engine.ai.erqiwang.sampling`) and how a playout is valued (`engine.ai.situan.search`,
`engine.ai.erqiwang.search`) are each game's own.

Determinism: the random choices come from ``seed`` and the public state of the decision, so
the same view gives the same decision. A search stops at ``playouts`` iterations or when
``budget`` seconds (read from ``clock``, injectable for tests) have passed, whichever first.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from engine.actions import Action

Clock = Callable[[], float]
DEFAULT_BUDGET = 0.15
"""Seconds per decision unless a game sets its own (`Search.default_budget`); the issue's
median target is 0.2 s."""
DEFAULT_PLAYOUTS = 400
"""Iterations (one sampled deal, every candidate played out) at most per decision: the budget
ends a search first, but for one whose playouts are very short."""
MAX_CANDIDATES = 5
"""Actions weighed at most per decision, the ``normal`` choice among them."""
OVERRUN = 2
"""An iteration under way is dropped once the search has run this many budgets."""
MIN_SAMPLES = 4
"""Fewer sampled deals than this decide nothing: the ``normal`` choice is played."""
CONFIDENCE = 2.0
"""Standard errors by which a candidate must beat the ``normal`` choice to replace it."""
MIN_GAIN = 0.15
"""And by at least this much of a hand's worth (a win is 1, a loss −1)."""
PROMISING = 0.5
"""A candidate whose average gain over the ``normal`` choice is at least this share of
``min_gain``, but not yet sure, leaves a decision contested (see `Search.extension`)."""
CULL_AFTER = 8
"""Sampled deals a candidate is played out on before it may be dropped (`Search.culling`)."""
CULL_SPREAD = 1.0
"""The least spread of gains a candidate is dropped on: a gain is mostly 0 (the same result)
and now and then ±2 (a hand won or lost), so a few equal results show little of it."""


@dataclass(frozen=True, slots=True)
class Weighing:
    """What a search saw in its last decision, for the hint's why-line (`bot.hosting.hinting`):
    how many sampled deals of the unseen cards every candidate was played out on, how many
    candidates were weighed, and whether one beat the ``normal`` player's choice."""

    samples: int = 0
    candidates: int = 1
    replaced: bool = False


class Search:
    """What both games' searches share: the budget, the seeded sampling, the averaging."""

    default_budget = DEFAULT_BUDGET
    """Seconds per decision when none is given."""
    work_playouts = DEFAULT_PLAYOUTS
    """Sampled deals per decision when the budget is CPU work rather than time (the host's
    AI workers, `bot.ai_seats.worker_pool`): about what ``default_budget`` buys on one quiet core,
    so the level plays as strong however busy the machine is."""
    confidence = CONFIDENCE
    min_gain = MIN_GAIN
    extension = 0.0
    """Further budgets (and playouts) a contested decision of play may run for: one where
    a candidate looks better than the ``normal`` choice but the sampled deals so far do not
    make it sure. Most decisions are not contested, so the median time stays the budget;
    the few that are get the samples that tell a better play from luck."""
    culling = False
    """Drop a candidate from the playouts once it plainly cannot replace the ``normal``
    choice (its average gain ``confidence`` standard errors above what the deals so far show
    is still under ``min_gain``, the spread taken as at least `CULL_SPREAD`; checked from
    `CULL_AFTER` sampled deals on): most candidates are plainly worse, and the samples they
    would take go to the ones still in the running. When none is left, the search ends early
    with the ``normal`` choice."""

    def __init__(
        self,
        seed: int | None = None,
        budget: float | None = None,
        playouts: int = DEFAULT_PLAYOUTS,
        clock: Clock = time.perf_counter,
    ) -> None:
        self.seed = 0 if seed is None else seed
        self.budget = self.default_budget if budget is None else budget
        self.playouts = playouts
        self.clock = clock
        self.iterations = 0
        """Iterations of the last search (for tests and the benchmark)."""
        self.samples = 0
        """Of those, the sampled deals every candidate was played out on."""
        self.weighing = Weighing()
        """What the last decision saw (none weighed: the ``normal`` choice, unsearched)."""

    def unweighed(self, action: Action) -> Action:
        """``action``, decided without a search: the last weighing says so."""
        self.weighing = Weighing()
        return action

    def _choose(
        self,
        candidates: list[Action],
        fallback: Action,
        rng: random.Random,
        playout: Callable[[random.Random, Action], float | None],
        budgets: float = 1.0,
    ) -> Action:
        """Play every candidate out on the same sampled deals. ``candidates[0]`` is the
        ``normal`` player's choice; another replaces it only when its average gain over it,
        deal by deal, is clearly above the noise of so few deals (``confidence`` standard
        errors and at least ``min_gain``, each game's own): with a handful of samples the
        best-looking of six candidates is mostly luck, and luck must not overrule a sound
        heuristic. The search runs for ``budgets`` times the budget and the playouts."""
        started = self.clock()
        budget = self.budget * budgets
        playouts = round(self.playouts * budgets)
        may_extend = budgets == 1.0 and self.extension > 0
        gains: list[list[float]] = [[] for _ in candidates]
        running = list(range(1, len(candidates)))  # still played out beside the normal choice
        cull_at = CULL_AFTER
        self.iterations = 0
        self.samples = 0
        while running:
            out_of_time = self.iterations and self.clock() - started >= budget
            if out_of_time or self.iterations >= playouts:
                if not (may_extend and self._contested(gains)):
                    break
                may_extend = False
                budget *= 1 + self.extension
                playouts = round(playouts * (1 + self.extension))
                continue
            state = rng.getstate()
            values: list[float] = []
            for i in (0, *running):
                if self.iterations and self.clock() - started >= OVERRUN * budget:
                    break  # one slow sampled deal must not hold the table up
                rng.setstate(state)  # every candidate meets the same sampled deal
                value = playout(rng, candidates[i])
                if value is None:
                    break  # a sampled deal the public record rules out: draw another
                values.append(value)
            rng.setstate(state)
            rng.random()
            self.iterations += 1
            if len(values) == len(running) + 1:
                self.samples += 1
                for i, value in zip(running, values[1:], strict=True):
                    gains[i].append(value - values[0])
                if self.culling and self.samples >= cull_at:
                    running = [i for i in running if not self._hopeless(gains[i])]
                    cull_at += cull_at // 4  # checked ever more rarely: the cost stays small
        best, best_gain = 0, 0.0
        for i in range(1, len(candidates)):
            if len(gains[i]) < MIN_SAMPLES:
                continue
            mean, sure = self._gain(gains[i])
            if mean >= self.min_gain and sure and mean > best_gain:
                best, best_gain = i, mean
        self.weighing = Weighing(self.samples, len(candidates), best != 0)
        return candidates[best]

    def _hopeless(self, gains: list[float]) -> bool:
        """A candidate that plainly cannot reach ``min_gain``: ``confidence`` standard
        errors above its average gain so far is still under it."""
        mean, spread = _mean_and_spread(gains)
        spread = max(spread, CULL_SPREAD)
        return mean + self.confidence * spread / math.sqrt(len(gains)) < self.min_gain

    def _gain(self, gains: list[float]) -> tuple[float, bool]:
        """A candidate's average gain over the ``normal`` choice, and whether it is clear
        of the noise (``confidence`` standard errors)."""
        mean, spread = _mean_and_spread(gains)
        return mean, mean > self.confidence * spread / math.sqrt(len(gains))

    def _contested(self, gains: list[list[float]]) -> bool:
        """Some candidate looks better than the ``normal`` choice, none is sure yet."""
        if self.samples < MIN_SAMPLES:
            return False
        promising = False
        for i in range(1, len(gains)):
            mean, sure = self._gain(gains[i])
            if mean >= self.min_gain and sure:
                return False
            promising = promising or mean >= PROMISING * self.min_gain
        return promising


def _mean_and_spread(gains: list[float]) -> tuple[float, float]:
    """The average and the standard deviation (n − 1) of at least two gains."""
    n = len(gains)
    mean = sum(gains) / n
    return mean, math.sqrt(sum((g - mean) ** 2 for g in gains) / (n - 1))
