"""The plays the ``hard`` 四团 player weighs: the ``normal`` choice and the few other plays a
good player would think of here, each a whole rank group where it can be.

Most legal plays are not worth a playout: a single split off a pair, a five-card bomb cut out of
seven. The search weighs, beside the ``normal`` choice:

- leading: the lowest group, the lowest group with points (shed them while the partner can
  still take them), the highest group (cash a round), the lowest group of each other size, and
  the smallest bomb;
- following: the pass, the cheapest beat by a whole group, the cheapest beat at all (a group
  split), the highest beat (a round made safe), and the smallest bombs that beat.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import Action, Pass
from engine.ai.situan.easy import _combo, _groups, _smallest_beating_bomb
from engine.situan.combos import RANK_COUNT, Combo
from engine.situan.legal import PLAYS
from engine.situan.views import SituanView


def situan_candidates(
    view: SituanView, turn: Sequence[Action], fallback: Action, most: int
) -> list[Action]:
    """At most ``most`` distinct legal actions, ``fallback`` (the ``normal`` choice) first."""
    seat = view.seat
    assert seat is not None
    counts = list(view.hand_counts)
    last = view.round_combo
    combos = _lead_combos(counts) if last is None else _follow_combos(counts, last)
    legal = set(turn)
    chosen = [fallback]
    for combo in combos:
        action = Pass(seat) if combo is None else PLAYS[seat][combo]
        if action in legal and action not in chosen:
            chosen.append(action)
            if len(chosen) >= most:
                break
    return chosen


def _lead_combos(counts: list[int]) -> list[Combo | None]:
    groups = _groups(counts)
    plain = [g for g in groups if not g.is_bomb]
    bombs = [g for g in groups if g.is_bomb]
    wanted: list[Combo | None] = []
    if plain:
        wanted.append(plain[0])
        wanted.append(next((g for g in plain if g.points), None))
        wanted.append(plain[-1])
        sizes = {plain[0].size}
        for g in plain:
            if g.size not in sizes:
                sizes.add(g.size)
                wanted.append(g)
    if bombs:
        wanted.append(min(bombs, key=lambda g: g.bomb_key))
    return [g for g in wanted if g is not None]


def _follow_combos(counts: list[int], last: Combo) -> list[Combo | None]:
    """The pass (None) first, then the beats worth weighing."""
    beating: list[Combo | None] = []
    if not last.is_bomb:
        size = last.size
        ranks = [r for r in range(last.rank + 1, RANK_COUNT) if counts[r] >= size]
        exact = [r for r in ranks if counts[r] == size]
        if exact:
            beating.append(_combo(exact[0], size))
        if ranks:
            beating += [_combo(ranks[0], size), _combo(ranks[-1], size)]
    beating.append(_smallest_beating_bomb(counts, last, whole=True))
    beating.append(_smallest_beating_bomb(counts, last))
    return [None, *(c for c in beating if c is not None)]
