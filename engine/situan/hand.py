"""One 四团 hand, from the deal to the result: turns, rounds, time-outs and 托管.

>>> from engine.situan import Rules, SituanHand
>>> hand = SituanHand.from_seed(Rules.from_preset("nanchang"), seed=7)
>>> events = hand.apply(hand.legal_actions(hand.to_act)[0])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.actions import Action, Auto, Pass, PickShow, Play, StartShow, Timeout
from engine.cards import Card
from engine.errors import IllegalAction
from engine.events import AutoChanged, TimedOut
from engine.game import Carry
from engine.situan import ending, show
from engine.situan.combos import COMBO_BY_RANKS, KINGS, RANK_COUNT, RANK_INDEX, RANKS, Combo
from engine.situan.deal import Deal, deal_from_seed
from engine.situan.events import CountAnnounced, Event, Passed, Played, RoundWon, WentOut
from engine.situan.legal import (
    COMBO_BY_RANK_NAMES,
    COMBO_OF_PLAY,
    OVER,
    PLAY,
    SHOW_PICK,
    auto_lead,
    legal_actions,
    legal_plays,
)
from engine.situan.result import SituanResult
from engine.situan.rules import Rules
from engine.situan.series import next_carry, next_leader
from engine.situan.views import SituanView

TIMEOUTS_FOR_AUTO = 3


class SituanHand:
    """The state of one 四团 hand. Mutated only by `apply`, which either raises
    `IllegalAction` and changes nothing, or applies the action and returns its events."""

    game = "situan"

    def __init__(
        self,
        rules: Rules,
        deal: Deal,
        first: int | None = None,
        carry: tuple[int, int] | None = None,
    ) -> None:
        self.rules = rules
        self.deal = deal
        if first is None:
            first = (
                deal.spade3_leader()
                if rules.first_leader == "spade3"
                else (deal.flip_leader() or 0)
            )
        self.first = first
        self.carry = carry if carry and (carry[0] or carry[1]) else None
        self.piles: list[list[list[Card]]] = [[[] for _ in range(RANK_COUNT)] for _ in range(4)]
        """Each seat's cards by rank index."""
        self.counts: list[list[int]] = [[0] * RANK_COUNT for _ in range(4)]
        for seat, cards in enumerate(deal.hands):
            for c in cards:
                r = RANK_INDEX[c.rank]
                self.piles[seat][r].append(c)
                self.counts[seat][r] += 1
        self.played_by = [[0] * RANK_COUNT for _ in range(4)]
        """Per seat and rank index, how many it has played (public: every play is)."""
        self.held = [len(h) for h in deal.hands]
        self.bottom_points = sum(c.points for c in deal.bottom)
        self.hand_points = [sum(c.points for c in h) for h in deal.hands]
        self.dealt_duns = [ending.duns_in_counts(counts) for counts in self.counts]
        self.played_duns: list[list[int | str]] = [[], [], [], []]
        self.played_counts = [0] * RANK_COUNT
        self.phase = PLAY
        self.turn = first
        self.round_combo: Combo | None = None
        self.round_seat: int | None = None
        self.round_plays: list[tuple[int, Combo | None]] = []
        self.last_round: tuple[tuple[int, Combo | None], ...] = ()
        """The round finished last, whole (for the table to show until the next is on)."""
        self.passes = 0
        self.table_points = 0
        self.finish: list[int] = []
        self.captured = [0, 0, 0, 0]
        self.show_by: int | None = None
        self.revealed: int | None = None
        self.show_seen: dict[int, tuple[Card, ...]] = {}
        self.timeouts = [0, 0, 0, 0]
        self.auto = [False, False, False, False]
        self.history: list[Action] = []
        self.result: SituanResult | None = None

    @classmethod
    def from_seed(
        cls,
        rules: Rules,
        seed: int | str,
        first: int | None = None,
        carry: tuple[int, int] | None = None,
    ) -> SituanHand:
        return cls(rules, deal_from_seed(seed), first, carry)

    # ----------------------------------------------------------------- queries

    @property
    def over(self) -> bool:
        return self.phase == OVER

    @property
    def to_act(self) -> int | None:
        """The seat the hand waits for: the player to move, or a 亮牌's initiator."""
        if self.phase == PLAY:
            return self.turn
        return self.show_by if self.phase == SHOW_PICK else None

    @property
    def time_limit(self) -> int:
        return self.rules.turn_seconds

    @property
    def leading(self) -> bool:
        """Whether the seat to move opens a round (and so may not pass)."""
        return self.round_combo is None

    @property
    def can_pass(self) -> bool:
        return self.phase == PLAY and self.round_combo is not None

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds, low rank first."""
        return tuple(c for cards in self.piles[seat] for c in cards)

    def rank_counts(self, seat: int) -> tuple[int, ...]:
        return tuple(self.counts[seat])

    def holding(self) -> list[int]:
        return [s for s in range(4) if self.held[s]]

    def legal_plays(self) -> list[Combo]:
        """Every combination the seat to move may play now (passing aside: see `can_pass`)."""
        return legal_plays(self)

    def legal_actions(self, seat: int) -> list[Action]:
        return legal_actions(self, seat)

    def public_count(self, seat: int) -> int | None:
        """报牌: the card count when it is public (≤ announce_at), else None."""
        held = self.held[seat]
        return held if held <= self.rules.announce_at else None

    def view(self, seat: int | None) -> SituanView:
        """What ``seat`` may know (None: the public view that group rendering gets)."""
        return SituanView(self, seat)

    def next_carry(self) -> Carry:
        """The next hand is led by this hand's 上游 and carries a series that is undecided."""
        assert self.result is not None
        return Carry(next_leader(self.result), next_carry(self.result))

    def start_record(self) -> dict[str, Any]:
        from engine.situan.record import start_record

        return start_record(self)

    # ----------------------------------------------------------------- actions

    def check(self, action: Action) -> None:
        """Raise `IllegalAction` if the rules refuse ``action``; change nothing."""
        checker = _CHECKS.get(type(action))
        if checker is None:
            raise IllegalAction(
                "bad_action", f"{action.act!r} is not a 四团 action", act=action.act
            )
        self.check_seat(action.seat)
        checker(self, action)

    def apply(self, action: Action) -> list[Event]:
        """Apply one action; raise `IllegalAction` (changing nothing) when the rules refuse it."""
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise IllegalAction(
                "bad_action", f"{action.act!r} is not a 四团 action", act=action.act
            )
        self.check_seat(action.seat)
        events = handler(self, action)
        if events or type(action) is not Auto:  # an Auto that changes nothing is no step
            self.history.append(action)
        return events

    def check_seat(self, seat: object) -> None:
        if type(seat) is not int or not 0 <= seat < 4:  # bool is no seat
            raise IllegalAction("bad_action", f"no seat {seat!r}", seat=seat)

    def check_running(self) -> None:
        if self.phase == OVER:
            raise IllegalAction("wrong_phase", "the hand is over", phase=self.phase)

    def own_action(self, seat: int, events: list[Event]) -> None:
        """Any action by the player takes them off 托管."""
        if self.auto[seat]:
            self.auto[seat] = False
            events.append(AutoChanged(seat, False))

    def _check_turn(self, seat: int) -> None:
        self.check_running()
        if self.phase != PLAY:
            raise IllegalAction(
                "wrong_phase", "the table waits for the 亮牌 pick", phase=self.phase
            )
        if seat != self.turn:
            raise IllegalAction(
                "not_your_turn", f"it is seat {self.turn}'s turn", seat=seat, turn=self.turn
            )

    def _check_pass(self, action: Pass) -> None:
        self._check_turn(action.seat)
        if self.round_combo is None:
            raise IllegalAction("must_lead", "the leader must play", seat=action.seat)

    def _on_pass(self, action: Pass) -> list[Event]:
        self._check_pass(action)
        events: list[Event] = []
        self.own_action(action.seat, events)
        self._pass(action.seat, events)
        return events

    def _check_play(self, action: Play) -> tuple[Combo, tuple[Card, ...] | None]:
        seat = action.seat
        listed = COMBO_OF_PLAY.get(id(action))
        if listed is not None:  # a play the engine listed: its combination is known
            self._check_turn(seat)
            if listed.kind == KINGS or self.counts[seat][listed.rank] < listed.size:
                self._check_ranks_held(seat, list(listed.ranks))
            last = self.round_combo
            if last is not None and not listed.beats(last):
                raise _cannot_beat(listed, last)
            return listed, None
        if not action.cards and not action.ranks:
            raise IllegalAction("bad_action", "a play needs its cards", act="play")
        self._check_turn(seat)
        combo: Combo | None
        if action.cards:
            # Suits never matter: a card written with a suit means its rank. The cards named
            # are taken when held, else any of those ranks (S7 takes any 7 held).
            cards: tuple[Card, ...] | None = action.cards
            ranks = sorted(RANK_INDEX[c.rank] for c in action.cards)
            if not self._holds_cards(seat, action.cards):
                self._check_ranks_held(seat, ranks)
                cards = None
            combo = COMBO_BY_RANKS.get(tuple(ranks))
        else:
            cards = None
            combo = COMBO_BY_RANK_NAMES.get(action.ranks)
            if combo is not None:
                ranks = list(combo.ranks)
            else:
                if not all(r in RANK_INDEX for r in action.ranks):
                    raise IllegalAction("bad_action", "a play needs its cards", act="play")
                ranks = sorted(RANK_INDEX[r] for r in action.ranks)
                combo = COMBO_BY_RANKS.get(tuple(ranks))
            self._check_ranks_held(seat, ranks)
        if combo is None:
            shown = " ".join(RANKS[r] for r in ranks)
            raise IllegalAction(
                "not_a_combination",
                f"{shown} is not a combination: one rank only (single, pair, triple, bomb) "
                "or four kings",
                ranks=[RANKS[r] for r in ranks],
            )
        last = self.round_combo
        if last is not None and not combo.beats(last):
            raise _cannot_beat(combo, last)
        return combo, cards

    def _check_ranks_held(self, seat: int, ranks: list[int]) -> None:
        counts = self.counts[seat]
        for rank in set(ranks):
            wanted = ranks.count(rank)
            if counts[rank] < wanted:
                raise IllegalAction(
                    "not_in_hand",
                    f"seat {seat} holds {counts[rank]} of {RANKS[rank]}, not {wanted}",
                    seat=seat, rank=RANKS[rank], held=counts[rank], wanted=wanted,
                )  # fmt: skip

    def _on_play(self, action: Play) -> list[Event]:
        combo, cards = self._check_play(action)
        events: list[Event] = []
        self.own_action(action.seat, events)
        self._play(action.seat, combo, cards, events)
        return events

    def _holds_cards(self, seat: int, cards: tuple[Card, ...]) -> bool:
        needed: dict[Card, int] = {}
        for c in cards:
            needed[c] = needed.get(c, 0) + 1
        piles = self.piles[seat]
        return all(piles[RANK_INDEX[c.rank]].count(c) >= n for c, n in needed.items())

    def _take_cards(
        self, seat: int, combo: Combo, cards: tuple[Card, ...] | None
    ) -> tuple[Card, ...]:
        piles = self.piles[seat]
        if cards is None:
            cards = tuple([piles[rank].pop() for rank in combo.ranks])
        else:
            for c in cards:
                piles[RANK_INDEX[c.rank]].remove(c)
        counts, played = self.counts[seat], self.played_by[seat]
        for rank in combo.ranks:
            counts[rank] -= 1
            played[rank] += 1
            self.played_counts[rank] += 1
        return cards

    def _play(
        self, seat: int, combo: Combo, cards: tuple[Card, ...] | None, events: list[Event]
    ) -> None:
        taken = self._take_cards(seat, combo, cards)
        self.held[seat] -= combo.size
        self.hand_points[seat] -= combo.points
        self.table_points += combo.points
        self.round_combo = combo
        self.round_seat = seat
        self.round_plays.append((seat, combo))
        self.passes = 0
        if combo.dun is not None:
            self.played_duns[seat].append(combo.dun)
        events.append(Played(seat, combo, taken))
        held = self.held[seat]
        if held and held <= self.rules.announce_at:
            events.append(CountAnnounced(seat, held))
        if held == 0:
            self.finish.append(seat)
            events.append(WentOut(seat, len(self.finish)))
            if ending.check_end(self, events):
                self.last_round = tuple(self.round_plays)
                return
        self.turn = self._next_holding(seat)

    def _pass(self, seat: int, events: list[Event]) -> None:
        self.passes += 1
        self.round_plays.append((seat, None))
        events.append(Passed(seat))
        last_seat = self.round_seat
        assert last_seat is not None
        others = sum(1 for s in range(4) if self.held[s] and s != last_seat)
        if self.passes < others:
            self.turn = self._next_holding(seat)
            return
        points = self.table_points
        self.captured[last_seat] += points
        self.table_points = 0
        self.last_round = tuple(self.round_plays)
        self.round_combo = None
        self.round_seat = None
        self.round_plays = []
        self.passes = 0
        leader = self._next_leader(last_seat)
        events.append(RoundWon(last_seat, points, leader, self.last_round))
        self.turn = leader
        if self.finish and self.rules.early_end:
            ending.check_end(self, events)

    def _next_holding(self, seat: int) -> int:
        for step in (1, 2, 3):
            nxt = (seat + step) & 3
            if self.held[nxt]:
                return nxt
        return seat

    def _next_leader(self, winner: int) -> int:
        if self.held[winner]:
            return winner
        partner = (winner + 2) & 3
        if self.rules.lead_after_out == "partner" and self.held[partner]:
            return partner
        return self._next_holding(winner)

    def _check_timeout(self, action: Timeout) -> None:
        self.check_running()
        actor = self.to_act
        if action.seat != actor:
            raise IllegalAction(
                "not_your_turn", f"it is seat {actor}'s turn", seat=action.seat, turn=actor
            )

    def _on_timeout(self, action: Timeout) -> list[Event]:
        """The table acts for the seat: a time-out, unless the seat is on 托管 already (then
        托管 is playing for it, which counts no time-out)."""
        self._check_timeout(action)
        seat = action.seat
        events: list[Event] = []
        if not self.auto[seat]:
            self.timeouts[seat] += 1
            events.append(TimedOut(seat, self.timeouts[seat]))
            if self.timeouts[seat] >= TIMEOUTS_FOR_AUTO:
                self.auto[seat] = True
                events.append(AutoChanged(seat, True))
        if self.phase == SHOW_PICK:
            show.reveal(self, seat, events)
        elif self.round_combo is not None:
            self._pass(seat, events)
        else:
            combo, cards = auto_lead(self, seat)
            self._play(seat, combo, cards, events)
        return events

    def auto_lead(self, seat: int) -> tuple[Combo, tuple[Card, ...]]:
        return auto_lead(self, seat)

    def _check_auto(self, action: Auto) -> None:
        if not isinstance(action.on, bool):
            raise IllegalAction("bad_action", "auto needs on: true or false", on=action.on)
        self.check_running()

    def _on_auto(self, action: Auto) -> list[Event]:
        self._check_auto(action)
        if self.auto[action.seat] == action.on:
            return []
        self.auto[action.seat] = action.on
        return [AutoChanged(action.seat, action.on)]


def _cannot_beat(combo: Combo, last: Combo) -> IllegalAction:
    return IllegalAction(
        "cannot_beat", f"{combo.name()} does not beat {last.name()}",
        play=combo.rank_text(), last=last.rank_text(), play_kind=combo.kind, last_kind=last.kind,
    )  # fmt: skip


_CHECKS: dict[type, Callable[[SituanHand, Any], object]] = {
    Play: SituanHand._check_play,
    Pass: SituanHand._check_pass,
    Timeout: SituanHand._check_timeout,
    StartShow: show.check_start,
    PickShow: show.check_pick,
    Auto: SituanHand._check_auto,
}
_HANDLERS: dict[type, Callable[[SituanHand, Any], list[Event]]] = {
    Play: SituanHand._on_play,
    Pass: SituanHand._on_pass,
    Timeout: SituanHand._on_timeout,
    StartShow: show.start,
    PickShow: show.pick,
    Auto: SituanHand._on_auto,
}
