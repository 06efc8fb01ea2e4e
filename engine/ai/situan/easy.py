"""The ``easy`` 四团 player: the first heuristic player, kept as it was (the baseline).

The ``normal`` player (`engine.ai.situan.normal`) is this one with the hooks `_shed_points`,
`_over_partner` and `_beating_bomb` filled in.

A 四团 player that sees only its seat's view.

The plan is the one good players follow: play each rank as one group (a pair stays a pair, a
bomb stays a bomb), get rid of low groups while leading, take rounds from opponents cheaply,
leave the partner's winning plays alone, and spend bombs only when they win something —
points on the table, an opponent about to go out, or the last steps to going out (双关).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from engine.actions import Action, AnswerShow, Pass, PickShow, Play, StartShow
from engine.situan.combos import (
    BJ_INDEX,
    COMBO_BY_RANK_SIZE,
    COPIES,
    FOUR_KINGS,
    LJ_INDEX,
    RANK_COUNT,
    RANK_INDEX,
    Combo,
)
from engine.situan.legal import PLAYS
from engine.situan.phases import PLAY, SHOW_CONSENT, SHOW_PICK
from engine.situan.views import SituanView


class TurnSight(Protocol):
    """What the policy reads to choose a play: a seat's `SituanView`, or a playout's state
    (`engine.ai.situan.playout`), which is the view of whichever seat is to move."""

    @property
    def seat(self) -> int | None: ...
    @property
    def round_combo(self) -> Combo | None: ...
    @property
    def round_seat(self) -> int | None: ...
    @property
    def counts(self) -> Sequence[int | None]:
        """报牌: each seat's card count once public, else None."""

    @property
    def held(self) -> Sequence[int]:
        """Each seat's card count (every play is public, so this is known to all)."""

    @property
    def finish(self) -> Sequence[int]: ...
    @property
    def played_counts(self) -> Sequence[int]: ...
    @property
    def table_points(self) -> int: ...


_TWO = RANK_INDEX["2"]
_DANGER_COUNT = 4
"""An opponent with this few cards (public by 报牌) may go out soon: stop them."""
_WORTH_A_BOMB = 20


class SituanEasyAI:
    """A heuristic 四团 policy: `decide(view, legal)` returns one of the ``legal`` actions."""

    def decide(self, view: SituanView, legal: Sequence[Action]) -> Action:
        wanted = self._wanted(view)
        if wanted in legal:
            return wanted
        # Never reached by this policy's own rules; a table must never stall on it.
        turn_actions = [a for a in legal if isinstance(a, (Play, Pass, PickShow, AnswerShow))]
        return turn_actions[0] if turn_actions else legal[0]

    def _wanted(self, view: SituanView) -> Action:
        seat = view.seat
        assert seat is not None
        if view.phase == SHOW_PICK:
            return self._pick_reveal(view)
        if view.phase == SHOW_CONSENT:
            return AnswerShow(seat, self._accepts_show(view, _rank_counts(view)))
        assert view.phase == PLAY and view.turn == seat
        counts = _rank_counts(view)
        if self._wants_show(view, counts):
            return StartShow(seat)
        play = self.turn_combo(view, counts)
        return Pass(seat) if play is None else PLAYS[seat][play]

    def turn_combo(self, view: TurnSight, counts: list[int]) -> Combo | None:
        """What the seat to move plays (None: it passes), from its ``counts`` per rank."""
        if view.round_combo is None:
            return self._lead(view, counts)
        return self._follow(view, counts)

    # ----------------------------------------------------------------- 亮牌

    def _wants_show(self, view: SituanView, counts: list[int]) -> bool:
        """Start a show when it multiplies the stakes and this hand is strong enough to win."""
        if view.show_by is not None or view.result is not None:
            return False
        if view.seat is not None and view.show_refused[view.seat]:
            return False  # the partner said no once this hand
        if view.show_multiplier <= 1:
            return False
        bombs = sum(1 for r in range(_TWO + 1) if counts[r] >= 4)
        groups = sum(1 for r in range(RANK_COUNT) if counts[r])
        return bombs >= 3 and groups <= 9

    def _accepts_show(self, view: SituanView, counts: list[int]) -> bool:
        """The partner's answer to a 亮牌 it is asked for (``show_consent = partner``): the
        first player agrees to whatever its partner asks."""
        return True

    def _pick_reveal(self, view: SituanView) -> Action:
        seat = view.seat
        assert seat is not None
        partner = (seat + 2) & 3
        partner_cards = view.show_seen.get(partner, ())
        # Reveal the hand that gives the opponents less to work with: the shorter one.
        reveal = partner if 0 < len(partner_cards) < len(view.hand) else seat
        return PickShow(seat, reveal)

    # ----------------------------------------------------------------- leading

    def _lead(self, view: TurnSight, counts: list[int]) -> Combo:
        groups = _groups(counts)
        whole = _whole_hand_combo(counts)
        if whole is not None:
            return whole
        seat = view.seat
        assert seat is not None
        partner = (seat + 2) & 3
        partner_count = view.counts[partner]
        if partner_count is not None and 0 < partner_count <= 2 and view.finish.count(partner) == 0:
            # Feed the partner: a low group of the size they can still answer.
            for size in (partner_count, 1):
                for rank in range(RANK_COUNT):
                    if counts[rank] >= size and counts[rank] < 4:
                        return _combo(rank, size)
        plain = [g for g in groups if not g.is_bomb]
        if plain:
            unbeatable = [g for g in plain if _is_top(view, counts, g)]
            if len(plain) <= 2 and unbeatable:
                return unbeatable[0]  # near the end: cash the sure rounds first
            shed = self._shed_points(view, plain)
            return plain[0] if shed is None else shed
        return groups[0]

    def _shed_points(self, view: TurnSight, plain: list[Combo]) -> Combo | None:
        """A lead chosen to be rid of point cards before the low ``plain[0]`` (none here)."""
        return None

    # ----------------------------------------------------------------- following

    def _follow(self, view: TurnSight, counts: list[int]) -> Combo | None:
        seat = view.seat
        assert seat is not None and view.round_combo is not None and view.round_seat is not None
        last = view.round_combo
        partner = (seat + 2) & 3
        whole = _whole_hand_combo(counts)
        if whole is not None and whole.beats(last):
            return whole
        if view.round_seat == partner:
            return self._over_partner(view, counts, last)
        danger = _opponent_in_danger(view)
        points = view.table_points
        if not last.is_bomb:
            cheap = self._cheapest_plain_beat(counts, last, spend_high=danger or points >= 10)
            if cheap is not None:
                return cheap
        partner_out = partner in view.finish
        worth = points >= _WORTH_A_BOMB or danger or partner_out or _groups_left(counts) <= 2
        if worth:
            return self._beating_bomb(counts, last)
        return None

    def _beating_bomb(self, counts: list[int], last: Combo) -> Combo | None:
        """The bomb played over ``last`` when a bomb is worth it: the smallest that beats it,
        even split off a larger group."""
        return _smallest_beating_bomb(counts, last)

    def _over_partner(self, view: TurnSight, counts: list[int], last: Combo) -> Combo | None:
        """What to play over a partner's winning play: nothing, so the round stays theirs."""
        return None

    def _cheapest_plain_beat(
        self, counts: list[int], last: Combo, spend_high: bool
    ) -> Combo | None:
        """The lowest same-kind play that beats ``last`` without breaking a bomb; a group is
        split (a pair out of a triple) only for points or danger."""
        size = last.size
        fallback: Combo | None = None
        for rank in range(last.rank + 1, RANK_COUNT):
            have = counts[rank]
            if have < size or (have >= 4 and rank <= _TWO):
                continue
            if rank >= _TWO and not spend_high and last.rank < RANK_INDEX["10"]:
                continue  # 2s and jokers are for taking rounds that matter
            if have == size:
                return _combo(rank, size)
            if fallback is None:
                fallback = _combo(rank, size)
        return fallback if spend_high else None


def _rank_counts(view: SituanView) -> list[int]:
    return list(view.hand_counts)


def _combo(rank: int, size: int) -> Combo:
    combo = COMBO_BY_RANK_SIZE[rank][size]
    assert combo is not None
    return combo


def _groups(counts: list[int]) -> list[Combo]:
    """The hand as whole-rank groups, low first (four kings kept together)."""
    kings = counts[LJ_INDEX] == 3 and counts[BJ_INDEX] == 1
    groups = []
    for rank in range(RANK_COUNT):
        if counts[rank] and not (kings and rank in (LJ_INDEX, BJ_INDEX)):
            groups.append(_combo(rank, counts[rank]))
    if kings:
        groups.append(FOUR_KINGS)
    return groups


def _groups_left(counts: list[int]) -> int:
    """``len(_groups(counts))``, without building them (asked at every follow)."""
    held = [rank for rank in range(RANK_COUNT) if counts[rank]]
    kings = counts[LJ_INDEX] == 3 and counts[BJ_INDEX] == 1
    return len(held) - 1 if kings else len(held)


def _whole_hand_combo(counts: list[int]) -> Combo | None:
    """The hand when it is one group (`_groups`), to be played out at once."""
    empty = counts.count(0)  # asked at every turn of a playout: counted in C first
    if empty == RANK_COUNT - 1:
        rank = next(r for r in range(RANK_COUNT) if counts[r])
        return _combo(rank, counts[rank])
    if empty == RANK_COUNT - 2 and counts[LJ_INDEX] == 3 and counts[BJ_INDEX] == 1:
        return FOUR_KINGS
    return None


def _opponent_in_danger(view: TurnSight) -> bool:
    seat = view.seat
    assert seat is not None
    for opponent in ((seat + 1) & 3, (seat + 3) & 3):
        count = view.counts[opponent]
        if count is not None and 0 < count <= _DANGER_COUNT:
            return True
    return False


def _smallest_beating_bomb(counts: list[int], last: Combo, whole: bool = False) -> Combo | None:
    """The smallest bomb that beats ``last``, four kings when no other does. With ``whole``
    (the ``normal`` player), never a part of a rank that leaves one to three cards of it."""
    best: Combo | None = None
    for rank in range(_TWO + 1):
        have = counts[rank]
        if have >= 4:
            for size in range(4, have + 1):
                if whole and 0 < have - size < 4:
                    continue  # the cards left of the rank would no longer be a bomb
                combo = _combo(rank, size)
                if combo.beats(last) and (best is None or combo.bomb_key < best.bomb_key):
                    best = combo
                    break
    if best is None and counts[LJ_INDEX] == 3 and counts[BJ_INDEX] == 1 and FOUR_KINGS.beats(last):
        best = FOUR_KINGS
    return best


def _is_top(view: TurnSight, counts: list[int], combo: Combo) -> bool:
    """Whether no card the others may hold can beat ``combo`` without a bomb."""
    for rank in range(combo.rank + 1, RANK_COUNT):
        unseen = COPIES[rank] - view.played_counts[rank] - counts[rank]
        if unseen >= combo.size:
            return False
    return True
