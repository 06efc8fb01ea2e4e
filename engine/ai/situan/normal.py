"""The ``normal`` 四团 player: the ``easy`` plan (`engine.ai.situan.easy`) and three habits of
good players on top.

- A bomb is played whole: the smallest of this seat's whole-rank bombs that beats the play, or
  a part of a group only when what stays is a bomb too. (Split off a larger group, a bomb
  leaves a scrap of one to three cards that must later be led or followed alone, and gives
  up the larger bomb; against ``easy``, which splits, this alone wins 74% of decided hands.)

- The player likely to finish last leads its low point groups early: the points left in the
  last player's hand go to the opponents, so it sheds them while the partner can take them.
- Over a partner's winning play it adds points, with a group nobody can beat without a bomb,
  so the round stays with the team.
- Asked to consent to its partner's 亮牌 (``show_consent = partner``), it agrees when the
  show costs little — stakes not multiplied, or its own part of the team already out — or
  when its own hand is strong enough to stand the multiplied stakes; it refuses otherwise.
"""

from __future__ import annotations

from engine.actions import Action
from engine.ai.situan.easy import (
    _TWO,
    SituanEasyAI,
    TurnSight,
    _combo,
    _is_top,
    _smallest_beating_bomb,
)
from engine.situan.combos import RANK_INDEX, Combo
from engine.situan.views import SituanView

_SHED_UP_TO = RANK_INDEX["10"]
"""The highest rank the likely last player leads early just to be rid of its points."""
_LAST_MARGIN = 6
"""Cards more than every other player still holding: likely to finish last."""
_BOMBS_TO_RISK_A_SHOW = 2
"""Bombs (below the jokers) a partner holds to agree to a show that multiplies the stakes:
the initiator asks with three (`SituanEasyAI._wants_show`), and two more make the team's
win likely enough to double on."""


class SituanAI(SituanEasyAI):
    """A heuristic 四团 policy: `decide(view, legal)` returns one of the ``legal`` actions."""

    def wanted_for(self, view: SituanView) -> Action:
        """The policy's choice without the legal list (for playouts: always legal)."""
        return self._wanted(view)

    def _accepts_show(self, view: SituanView, counts: list[int]) -> bool:
        seat = view.seat
        assert seat is not None
        if view.show_multiplier <= 1 or not view.held[seat]:
            # Only what the pair learn of each other, and this seat picks the hand shown.
            return True
        bombs = sum(1 for r in range(_TWO + 1) if counts[r] >= 4)
        return bombs >= _BOMBS_TO_RISK_A_SHOW

    def _shed_points(self, view: TurnSight, plain: list[Combo]) -> Combo | None:
        if not _likely_last(view):
            return None
        return next((g for g in plain if g.points and g.rank <= _SHED_UP_TO), None)

    def _over_partner(self, view: TurnSight, counts: list[int], last: Combo) -> Combo | None:
        return _feed_partner(view, counts, last)

    def _beating_bomb(self, counts: list[int], last: Combo) -> Combo | None:
        return _smallest_beating_bomb(counts, last, whole=True)


def _likely_last(view: TurnSight) -> bool:
    """Whether this seat holds clearly more cards than every other player still in."""
    seat = view.seat
    assert seat is not None
    held = view.held
    others = [held[s] for s in range(4) if s != seat and held[s]]
    return bool(others) and held[seat] >= max(others) + _LAST_MARGIN


def _feed_partner(view: TurnSight, counts: list[int], last: Combo) -> Combo | None:
    """Over a partner's winning play, add points only with a group nobody can beat without
    a bomb (the round stays with the team), and only one with points and below the 2s."""
    if last.is_bomb:
        return None
    for rank in range(last.rank + 1, _TWO):
        have = counts[rank]
        if have == last.size and have < 4:
            combo = _combo(rank, have)
            if combo.points and _is_top(view, counts, combo):
                return combo
    return None
