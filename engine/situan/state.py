"""One 四团 hand, from the deal to the result: legal plays, actions, events, views.

>>> from engine.situan import SituanHand, Rules
>>> hand = SituanHand.from_seed(Rules.from_preset("nanchang"), seed=7)
>>> combo = hand.legal_plays()[0]
>>> events = hand.apply(Action.play(hand.turn, combo))
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from engine.cards import Card
from engine.errors import IllegalAction
from engine.options import format_amount
from engine.situan.actions import (
    Action,
    AutoChanged,
    CountAnnounced,
    Event,
    HandEnded,
    HandRevealed,
    Passed,
    Played,
    RoundWon,
    ShowStarted,
    TimedOut,
    WentOut,
)
from engine.situan.combos import (
    BJ_INDEX,
    COMBO_BY_RANK_SIZE,
    COMBO_BY_RANKS,
    FOUR_KINGS,
    LJ_INDEX,
    RANK_COUNT,
    RANK_INDEX,
    RANKS,
    Combo,
)
from engine.situan.deal import Deal, deal_from_seed
from engine.situan.outcome import (
    counted_team_points,
    decided_winner,
    double_winner,
    team_of,
)
from engine.situan.rules import Rules

PLAY, SHOW_PICK, OVER = "play", "show_pick", "over"
"""Phases: players play; a 亮牌 waits for its initiator's pick; the hand is over."""

TIMEOUTS_FOR_AUTO = 3
TEAM_NAMES = ("A", "B")
_NATURAL_TOP = BJ_INDEX - 2  # index of rank 2: the highest rank that can form a bomb


def dun_units(dun: int | str) -> int:
    """墩 a holding or play is worth: 7 cards = 1 … 12 = 6; 3 small jokers 1; four kings 2."""
    if dun == "KINGS4":
        return 2
    if dun == "LJ3":
        return 1
    assert isinstance(dun, int)
    return dun - 6


def duns_in_counts(counts: list[int]) -> list[int | str]:
    """What a dealt hand earns as 墩: same-rank sizes ≥ 7, then ``LJ3`` or ``KINGS4``."""
    duns: list[int | str] = [counts[r] for r in range(RANK_COUNT - 2) if counts[r] >= 7]
    if counts[LJ_INDEX] == 3:
        duns.append("KINGS4" if counts[BJ_INDEX] == 1 else "LJ3")
    return duns


class SituanHand:
    """The state of one 四团 hand. Mutated only by `apply`, which either raises
    `IllegalAction` and changes nothing, or applies the action and returns its events."""

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
        self._cards: list[list[list[Card]]] = [[[] for _ in range(RANK_COUNT)] for _ in range(4)]
        self._counts: list[list[int]] = [[0] * RANK_COUNT for _ in range(4)]
        for seat, hand in enumerate(deal.hands):
            for c in hand:
                r = RANK_INDEX[c.rank]
                self._cards[seat][r].append(c)
                self._counts[seat][r] += 1
        self.held = [len(h) for h in deal.hands]
        self.bottom_points = sum(c.points for c in deal.bottom)
        self.hand_points = [sum(c.points for c in h) for h in deal.hands]
        self.dealt_duns = [duns_in_counts(counts) for counts in self._counts]
        self.played_duns: list[list[int | str]] = [[], [], [], []]
        self.played_counts = [0] * RANK_COUNT
        self.phase = PLAY
        self.turn = first
        self.round_combo: Combo | None = None
        self.round_seat: int | None = None
        self.round_plays: list[tuple[int, Combo | None]] = []
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
        self.result: dict[str, Any] | None = None

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
    def leading(self) -> bool:
        """Whether the seat to move opens a round (and so may not pass)."""
        return self.round_combo is None

    @property
    def can_pass(self) -> bool:
        return self.phase == PLAY and self.round_combo is not None

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds, low rank first."""
        return tuple(c for cards in self._cards[seat] for c in cards)

    def rank_counts(self, seat: int) -> tuple[int, ...]:
        return tuple(self._counts[seat])

    def holding(self) -> list[int]:
        return [s for s in range(4) if self.held[s]]

    def legal_plays(self) -> list[Combo]:
        """Every combination the seat to move may play now (passing aside: see `can_pass`)."""
        if self.phase != PLAY:
            return []
        counts = self._counts[self.turn]
        last = self.round_combo
        plays: list[Combo] = []
        if last is None:
            for rank in range(RANK_COUNT):
                count = counts[rank]
                if count:
                    plays.extend(COMBO_BY_RANK_SIZE[rank][1 : count + 1])  # type: ignore[arg-type]
            if counts[LJ_INDEX] == 3 and counts[BJ_INDEX]:
                plays.append(FOUR_KINGS)
            return plays
        if not last.is_bomb:
            size = last.size
            for rank in range(last.rank + 1, RANK_COUNT):
                if counts[rank] >= size:
                    plays.append(COMBO_BY_RANK_SIZE[rank][size])  # type: ignore[arg-type]
            min_key: tuple[int, int] = (0, 0)
        else:
            min_key = last.bomb_key
        for rank in range(_NATURAL_TOP + 1):
            count = counts[rank]
            if count >= 4 and (count, rank) > min_key:
                row = COMBO_BY_RANK_SIZE[rank]
                for size in range(max(4, min_key[0]), count + 1):
                    if (size, rank) > min_key:
                        plays.append(row[size])  # type: ignore[arg-type]
        if counts[LJ_INDEX] == 3 and counts[BJ_INDEX] and FOUR_KINGS.bomb_key > min_key:
            plays.append(FOUR_KINGS)
        return plays

    def legal_actions(self) -> list[Action]:
        """`legal_plays` as actions, with the pass where it is allowed."""
        actions = [Action.play(self.turn, c) for c in self.legal_plays()]
        if self.can_pass:
            actions.append(Action.pass_(self.turn))
        return actions

    def public_count(self, seat: int) -> int | None:
        """报牌: the card count when it is public (≤ announce_at), else None."""
        held = self.held[seat]
        return held if held <= self.rules.announce_at else None

    # ----------------------------------------------------------------- actions

    def apply(self, action: Action) -> list[Event]:
        """Apply one action; raise `IllegalAction` (changing nothing) when the rules refuse it."""
        act = action.act
        if act == "play" or act == "pass":
            events = self._apply_turn(action)
        elif act == "timeout":
            events = self._apply_timeout(action)
        elif act == "show_start":
            events = self._apply_show_start(action)
        elif act == "show_pick":
            events = self._apply_show_pick(action)
        elif act == "auto":
            events = self._apply_auto(action)
        else:
            raise IllegalAction("bad_action", f"unknown action {act!r}", act=act)
        self.history.append(action)
        return events

    def _check_seat(self, seat: object) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 4:
            raise IllegalAction("bad_action", f"no seat {seat!r}", seat=seat)

    def _check_running(self) -> None:
        if self.phase == OVER:
            raise IllegalAction("wrong_phase", "the hand is over", phase=self.phase)

    def _own_action(self, seat: int, events: list[Event]) -> None:
        if self.auto[seat]:
            self.auto[seat] = False
            events.append(AutoChanged(seat, False))

    def _apply_turn(self, action: Action) -> list[Event]:
        seat = action.seat
        self._check_seat(seat)
        if action.act == "play" and (action.cards is None) == (action.ranks is None):
            raise IllegalAction("bad_action", "a play needs its cards", act="play")
        self._check_running()
        if self.phase != PLAY:
            raise IllegalAction(
                "wrong_phase", "the table waits for the 亮牌 pick", phase=self.phase
            )
        if seat != self.turn:
            raise IllegalAction(
                "not_your_turn", f"it is seat {self.turn}'s turn", seat=seat, turn=self.turn
            )
        events: list[Event] = []
        if action.act == "pass":
            if self.round_combo is None:
                raise IllegalAction("must_lead", "the leader must play", seat=seat)
            self._own_action(seat, events)
            self._pass(seat, events)
        else:
            combo, cards = self._checked_play(seat, action)
            self._own_action(seat, events)
            self._play(seat, combo, cards, events)
        return events

    def _checked_play(self, seat: int, action: Action) -> tuple[Combo, tuple[Card, ...] | None]:
        counts = self._counts[seat]
        if action.cards is not None:
            cards = action.cards
            if not cards:
                raise IllegalAction("bad_action", "a play needs its cards", act="play")
            ranks = sorted(RANK_INDEX[c.rank] for c in cards)
            if not self._holds_cards(seat, cards):
                shown = " ".join(c.text for c in cards)
                raise IllegalAction(
                    "not_in_hand", f"seat {seat} does not hold {shown}", seat=seat,
                    cards=[c.text for c in cards],
                )  # fmt: skip
        else:
            assert action.ranks is not None
            ranks = sorted(action.ranks)
            cards = None
            if not ranks or not all(isinstance(r, int) and 0 <= r < RANK_COUNT for r in ranks):
                raise IllegalAction("bad_action", "a play needs its cards", act="play")
            for rank in set(ranks):
                wanted = ranks.count(rank)
                if counts[rank] < wanted:
                    raise IllegalAction(
                        "not_in_hand",
                        f"seat {seat} holds {counts[rank]} of {RANKS[rank]}, not {wanted}",
                        seat=seat, rank=RANKS[rank], held=counts[rank], wanted=wanted,
                    )  # fmt: skip
        combo = COMBO_BY_RANKS.get(tuple(ranks))
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
            raise IllegalAction(
                "cannot_beat", f"{combo.name()} does not beat {last.name()}",
                play=combo, last=last,
            )  # fmt: skip
        return combo, cards

    def _holds_cards(self, seat: int, cards: tuple[Card, ...]) -> bool:
        needed: dict[Card, int] = {}
        for c in cards:
            needed[c] = needed.get(c, 0) + 1
        piles = self._cards[seat]
        return all(piles[RANK_INDEX[c.rank]].count(c) >= n for c, n in needed.items())

    def _take_cards(
        self, seat: int, combo: Combo, cards: tuple[Card, ...] | None
    ) -> tuple[Card, ...]:
        piles = self._cards[seat]
        if cards is None:
            taken = []
            for rank in combo.ranks:
                taken.append(piles[rank].pop())
            cards = tuple(taken)
        else:
            for c in cards:
                piles[RANK_INDEX[c.rank]].remove(c)
        counts = self._counts[seat]
        for rank in combo.ranks:
            counts[rank] -= 1
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
            if self._check_end(events):
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
        self.round_combo = None
        self.round_seat = None
        self.round_plays = []
        self.passes = 0
        leader = self._next_leader(last_seat)
        events.append(RoundWon(last_seat, points, leader))
        self.turn = leader
        if self.finish and self.rules.early_end:
            self._check_end(events)

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

    def _apply_timeout(self, action: Action) -> list[Event]:
        seat = action.seat
        self._check_seat(seat)
        self._check_running()
        actor = self.show_by if self.phase == SHOW_PICK else self.turn
        if seat != actor:
            raise IllegalAction(
                "not_your_turn", f"it is seat {actor}'s turn", seat=seat, turn=actor
            )
        self.timeouts[seat] += 1
        events: list[Event] = [TimedOut(seat, self.timeouts[seat])]
        if self.timeouts[seat] >= TIMEOUTS_FOR_AUTO and not self.auto[seat]:
            self.auto[seat] = True
            events.append(AutoChanged(seat, True))
        if self.phase == SHOW_PICK:
            self._reveal(seat, events)
        elif self.round_combo is not None:
            self._pass(seat, events)
        else:
            combo, cards = self.auto_lead(seat)
            self._play(seat, combo, cards, events)
        return events

    def auto_lead(self, seat: int) -> tuple[Combo, tuple[Card, ...]]:
        """托管 lead: the lowest single (of that rank, the card the hand lists last)."""
        for rank in range(RANK_COUNT):
            if self._counts[seat][rank]:
                return COMBO_BY_RANK_SIZE[rank][1], (self._cards[seat][rank][-1],)  # type: ignore[return-value]
        raise AssertionError("a leader always holds cards")

    def _apply_show_start(self, action: Action) -> list[Event]:
        seat = action.seat
        self._check_seat(seat)
        self._check_running()
        if self.phase != PLAY:
            raise IllegalAction("wrong_phase", "a 亮牌 is waiting for its pick", phase=self.phase)
        if self.show_by is not None:
            raise IllegalAction("show_not_allowed", "this hand already had a 亮牌", seat=seat)
        if not self.held[seat]:
            raise IllegalAction("show_not_allowed", "a player who is out cannot start a 亮牌")
        events: list[Event] = []
        self._own_action(seat, events)
        partner = (seat + 2) & 3
        self.show_by = seat
        self.show_seen = {seat: self.hand(partner), partner: self.hand(seat)}
        self.phase = SHOW_PICK
        events.append(ShowStarted(seat, partner))
        return events

    def _apply_show_pick(self, action: Action) -> list[Event]:
        seat = action.seat
        self._check_seat(seat)
        reveal = action.reveal
        if not isinstance(reveal, int) or isinstance(reveal, bool) or not 0 <= reveal < 4:
            raise IllegalAction("bad_action", "reveal names a seat", reveal=reveal)
        self._check_running()
        if self.phase != SHOW_PICK:
            raise IllegalAction("wrong_phase", "no 亮牌 is waiting for a pick", phase=self.phase)
        if seat != self.show_by:
            raise IllegalAction(
                "not_your_turn", f"seat {self.show_by} picks the revealed hand",
                seat=seat, turn=self.show_by,
            )  # fmt: skip
        if reveal not in (seat, (seat + 2) & 3) or not self.held[reveal]:
            raise IllegalAction(
                "show_not_allowed",
                "the revealed hand is yours or your partner's, and must hold cards",
                reveal=reveal,
            )
        events: list[Event] = []
        self._own_action(seat, events)
        self._reveal(reveal, events)
        return events

    def _reveal(self, seat: int, events: list[Event]) -> None:
        self.revealed = seat
        self.phase = PLAY
        events.append(HandRevealed(seat, self.hand(seat)))

    def _apply_auto(self, action: Action) -> list[Event]:
        seat = action.seat
        self._check_seat(seat)
        if not isinstance(action.on, bool):
            raise IllegalAction("bad_action", "auto needs on: true or false", on=action.on)
        self._check_running()
        if self.auto[seat] == action.on:
            return []
        self.auto[seat] = action.on
        return [AutoChanged(seat, action.on)]

    # ----------------------------------------------------------------- the end

    def _check_end(self, events: list[Event]) -> bool:
        holding = self.holding()
        winner = double_winner(self.finish, holding)
        if winner is not None:
            self._end("double", winner, events)
            return True
        if len(self.finish) == 3:
            self._end("points", None, events)
            return True
        if self.rules.early_end:
            winner = decided_winner(
                self.finish, holding, self.captured, self.hand_points, self.table_points,
                self.round_seat, self.bottom_points, self.carry,
            )  # fmt: skip
            if winner is not None:
                self._end("decided", winner, events)
                return True
        return False

    def _end(self, ended_by: str, winner: int | None, events: list[Event]) -> None:
        if self.round_seat is not None:
            # The round still open goes to its last player, who has just gone out.
            self.captured[self.round_seat] += self.table_points
            self.table_points = 0
        self.phase = OVER
        self.result = self._result(ended_by, winner)
        events.append(HandEnded(self.result))

    def _result(self, ended_by: str, winner: int | None) -> dict[str, Any]:
        holding = self.holding()
        finish = self.finish + holding
        if ended_by == "points":
            team_points = counted_team_points(
                finish, self.captured, self.hand_points[finish[3]], self.bottom_points
            )
        else:
            team_points = [self.captured[0] + self.captured[2], self.captured[1] + self.captured[3]]
        carry_out: dict[str, int] | None = None
        if ended_by == "points":
            carried = self.carry or (0, 0)
            totals = [carried[0] + team_points[0], carried[1] + team_points[1]]
            if self.carry is None:
                if team_points[0] >= 200 or team_points[1] >= 200:
                    winner = 0 if team_points[0] >= 200 else 1
            elif totals[0] != totals[1]:
                winner = 0 if totals[0] > totals[1] else 1
            if winner is None:
                carry_out = {"A": totals[0], "B": totals[1]}
        duns = self.dealt_duns if self.rules.dun_counted == "dealt" else self.played_duns
        multiplier = self.rules.show_multiplier if self.show_by is not None else 1
        stakes = [Fraction(0)] * 4
        if winner is not None:
            stakes = [
                Fraction(multiplier if team_of(s) == winner else -multiplier) for s in range(4)
            ]
        bonus = [Fraction(0)] * 4
        for owner in range(4):
            units = sum(dun_units(d) for d in duns[owner]) * self.rules.dun_value
            for seat in range(4):
                bonus[seat] += 3 * units if seat == owner else -units
        result: dict[str, Any] = {
            "finish": finish,
            "ended_by": ended_by,
            "captured": list(self.captured),
            "team_points": {"A": team_points[0], "B": team_points[1]},
            "winner": None if winner is None else TEAM_NAMES[winner],
        }
        if carry_out is not None:
            result["carry"] = carry_out
        result.update(
            {
                "dun": [list(d) for d in duns],
                "shown": None
                if self.show_by is None
                else {"by": self.show_by, "revealed": self.revealed},
                "stakes": [format_amount(x) for x in stakes],
                "bonus": [format_amount(x) for x in bonus],
                "total": [format_amount(a + b) for a, b in zip(stakes, bonus, strict=True)],
            }
        )
        return result

    # ----------------------------------------------------------------- views

    def view(self, seat: int | None) -> SituanView:
        """What ``seat`` may know (None: the public view that group rendering gets)."""
        return SituanView(self, seat)


class SituanView:
    """A seat's knowledge of the hand: its own cards, and what is public to everyone
    (counts ≤ announce_at, every play, captured points, a revealed hand, 亮墩 under
    ``dun_counted = dealt``), plus the partner's hand as seen once in its own 亮牌."""

    __slots__ = (
        "announce_at",
        "auto",
        "bottom",
        "captured",
        "counts",
        "duns",
        "finish",
        "first",
        "hand",
        "leading",
        "phase",
        "played_counts",
        "result",
        "revealed",
        "revealed_hand",
        "round_combo",
        "round_plays",
        "round_seat",
        "seat",
        "show_by",
        "show_multiplier",
        "show_seen",
        "table_points",
        "timeouts",
        "turn",
    )  # fmt: skip

    def __init__(self, state: SituanHand, seat: int | None) -> None:
        self.seat = seat
        self.phase = state.phase
        self.turn = state.turn
        self.first = state.first
        self.leading = state.leading
        self.hand: tuple[Card, ...] = () if seat is None else state.hand(seat)
        self.announce_at = state.rules.announce_at
        self.show_multiplier = state.rules.show_multiplier
        self.counts = [state.public_count(s) for s in range(4)]
        self.round_plays = list(state.round_plays)
        self.round_combo = state.round_combo
        self.round_seat = state.round_seat
        self.table_points = state.table_points
        self.captured = list(state.captured)
        self.finish = list(state.finish)
        self.played_counts = list(state.played_counts)
        self.revealed = state.revealed
        self.revealed_hand = () if state.revealed is None else state.hand(state.revealed)
        self.show_by = state.show_by
        self.show_seen: dict[int, tuple[Card, ...]] = {}
        if seat is not None and seat in state.show_seen:
            self.show_seen = {(seat + 2) & 3: state.show_seen[seat]}
        self.duns = (
            [list(d) for d in state.dealt_duns]
            if state.rules.dun_counted == "dealt"
            else [list(d) for d in state.played_duns]
        )
        self.auto = list(state.auto)
        self.timeouts = list(state.timeouts)
        self.result = state.result
        # The bottom is turned over when the hand ends (its points go to 上游).
        self.bottom: tuple[Card, ...] = state.deal.bottom if state.over else ()

    def known_cards(self) -> tuple[Card, ...]:
        """Every card this view shows, of any seat (for the no-leak checks)."""
        seen = list(self.hand) + list(self.revealed_hand) + list(self.bottom)
        for cards in self.show_seen.values():
            seen.extend(cards)
        return tuple(seen)
