"""A 四团 hand reduced to what a ``hard`` playout needs: every seat's count per rank, the
round, the points and who is out. The ``normal`` player plays it to the end and it ends as
the engine's hand would (`tests/ai/test_situan_playout.py` plays both side by side), but a
step builds no cards, no events and no view: the state itself is the view of the seat to move
(`engine.ai.situan.easy.TurnSight`), so a search gets several times the sampled deals per
decision.

The rules it follows are the engine's own functions: who plays next and who leads
(`engine.situan.rounds`), when the hand is over and what it scores (`engine.situan.outcome`).
A 亮牌 is left out: it moves no card and no point, only the stakes, which a playout's value
does not count.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.ai.situan.easy import SituanEasyAI
from engine.situan.combos import RANK_COUNT, RANK_POINTS, Combo
from engine.situan.outcome import how_it_ends, scored
from engine.situan.rounds import holding_after, round_leader
from engine.situan.views import SituanView

MAX_STEPS = 2000
"""More plays and passes than any hand takes (a guard, never reached)."""


class SituanPlayout:
    """One sampled deal of a 四团 hand, from a seat's view, played to the end by a policy."""

    __slots__ = (
        "announce_at",
        "bottom_points",
        "captured",
        "carry",
        "counts",
        "early_end",
        "finish",
        "hand_counts",
        "hand_points",
        "hands",
        "held",
        "lead_after_out",
        "passes",
        "played_counts",
        "round_combo",
        "round_seat",
        "seat",
        "table_points",
        "team_points",
        "turn",
        "winner",
    )

    def __init__(self, view: SituanView, hands: list[list[int]], bottom: Sequence[int]) -> None:
        """``hands``: every seat's count per rank index (this list is played down, not
        copied); ``bottom``: the bottom's rank indices."""
        rules = view.rules
        self.announce_at = rules.announce_at
        self.early_end = rules.early_end
        self.lead_after_out = rules.lead_after_out
        self.carry = view.carry
        self.hands = hands
        self.held = [sum(h) for h in hands]
        self.counts: list[int | None] = [
            n if n <= self.announce_at else None for n in self.held
        ]  # 报牌
        self.hand_points = [sum(RANK_POINTS[r] * h[r] for r in range(RANK_COUNT)) for h in hands]
        self.bottom_points = sum(RANK_POINTS[r] for r in bottom)
        self.played_counts = list(view.played_counts)
        self.finish = list(view.finish)
        self.captured = list(view.captured)
        self.table_points = view.table_points
        self.round_combo = view.round_combo
        self.round_seat = view.round_seat
        self.passes = 0
        for _, combo in reversed(view.round_plays):
            if combo is not None:
                break
            self.passes += 1
        self.turn = view.turn
        self.seat: int | None = view.turn
        self.hand_counts: list[int] = hands[view.turn]
        self.winner: int | None = None
        self.team_points: tuple[int, int] | None = None
        """Set when the hand is over (`over`): the winning team (None: carried over) and
        each team's points."""

    @property
    def over(self) -> bool:
        return self.team_points is not None

    def play_out(self, policy: SituanEasyAI) -> SituanPlayout:
        """Every seat plays ``policy`` until the hand is over."""
        for _ in range(MAX_STEPS):
            if self.over:
                break
            seat = self.turn
            self.seat = seat
            counts = self.hand_counts = self.hands[seat]
            self.act(policy.turn_combo(self, list(counts)))
        return self

    def act(self, combo: Combo | None) -> None:
        """The seat to move plays ``combo`` (a legal one), or passes with None."""
        if combo is None:
            self._pass()
        else:
            self._play(combo)

    def _play(self, combo: Combo) -> None:
        seat = self.turn
        counts = self.hands[seat]
        played = self.played_counts
        for rank in combo.ranks:
            counts[rank] -= 1
            played[rank] += 1
        held = self.held[seat] = self.held[seat] - combo.size
        self.hand_points[seat] -= combo.points
        self.table_points += combo.points
        self.round_combo = combo
        self.round_seat = seat
        self.passes = 0
        if held <= self.announce_at:
            self.counts[seat] = held
        if held == 0:
            self.finish.append(seat)
            if self._ended():
                return
        self.turn = holding_after(self.held, seat)

    def _pass(self) -> None:
        seat = self.turn
        self.passes += 1
        winner = self.round_seat
        assert winner is not None
        held = self.held
        others = 4 - held.count(0) - (1 if held[winner] else 0)  # holding, but the winner
        if self.passes < others:
            self.turn = holding_after(held, seat)
            return
        self.captured[winner] += self.table_points
        self.table_points = 0
        self.round_combo = None
        self.round_seat = None
        self.passes = 0
        self.turn = round_leader(held, winner, self.lead_after_out)
        if self.finish and self.early_end:
            self._ended()

    def _ended(self) -> bool:
        holding = [s for s in range(4) if self.held[s]]
        ending = how_it_ends(
            self.finish,
            holding,
            self.captured,
            self.hand_points,
            self.table_points,
            self.round_seat,
            self.bottom_points,
            self.carry,
            self.early_end,
        )
        if ending is None:
            return False
        if self.round_seat is not None:  # the open round goes to its last player
            self.captured[self.round_seat] += self.table_points
            self.table_points = 0
        score = scored(
            *ending,
            self.finish + holding,
            self.captured,
            self.hand_points,
            self.bottom_points,
            self.carry,
        )
        self.winner = score.winner
        self.team_points = score.team_points
        return True
