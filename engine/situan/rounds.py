"""Rounds of 四团: each turn a seat beats the round's combination or passes; when everyone
still holding cards has passed, the last player takes the round's points and leads (or, out
of cards, hands the lead on). A play announces the count left (报牌) and may take a seat out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.actions import Pass, Play
from engine.cards import Card
from engine.dispatch import check_seat
from engine.errors import IllegalAction
from engine.situan import ending
from engine.situan.combos import (
    COMBO_BY_RANKS,
    FOUR_KINGS,
    KINGS,
    RANK_INDEX,
    RANK_OF_CARD,
    RANKS,
    Combo,
)
from engine.situan.events import CountAnnounced, Passed, Played, RoundWon, SituanEvent, WentOut
from engine.situan.legal import COMBO_BY_RANK_NAMES, COMBO_OF_PLAY, PASSES
from engine.situan.phases import PLAY

if TYPE_CHECKING:
    from engine.situan.hand import SituanHand
    from engine.situan.holding import Holding


PASS_ENTRIES = tuple((seat, None) for seat in range(4))
"""Each seat's pass as the round and the hand list it (a tuple: shared, never changed)."""
PASSED = tuple(Passed(seat) for seat in range(4))
"""The event of each seat's pass, made once: a pass is most turns, and an event is never
changed (frozen), so every pass of a seat can share one."""


def check_turn(hand: SituanHand, seat: int) -> None:
    hand.check_running()
    if hand.phase != PLAY:
        raise IllegalAction("wrong_phase", "the table waits for the 亮牌 pick", phase=hand.phase)
    if seat != hand.turn:
        raise IllegalAction(
            "not_your_turn", f"it is seat {hand.turn}'s turn", seat=seat, turn=hand.turn
        )


def check_pass(hand: SituanHand, action: Pass) -> None:
    if hand.phase != PLAY or action.seat != hand.turn:  # else `check_turn` has nothing to say
        check_turn(hand, action.seat)
    if hand.round_combo is None:
        raise IllegalAction("must_lead", "the leader must play", seat=action.seat)


def pass_turn(hand: SituanHand, action: Pass) -> list[SituanEvent]:
    # The listed pass of the seat to move, in play, after a play: most passes, and nothing
    # is wrong with them. Any other pass is checked in full (a seat first, as `Dispatch`).
    if action is not PASSES[hand.turn] or hand.phase is not PLAY or hand.round_combo is None:
        check_seat(action.seat)
        check_pass(hand, action)  # it refuses; else nothing is wrong with the pass
    events: list[SituanEvent] = []
    if hand.auto[action.seat]:  # most players are not on 托管: no call
        hand.own_action(action.seat, events)
    record_pass(hand, action.seat, events)
    return events


def check_play(hand: SituanHand, action: Play) -> tuple[Combo, tuple[Card, ...] | None]:
    seat = action.seat
    listed = COMBO_OF_PLAY.get(id(action))
    if listed is not None:  # a play the engine listed: its combination is known
        if hand.phase is not PLAY or seat != hand.turn:  # else `check_turn` has nothing to say
            check_turn(hand, seat)
        if listed.kind == KINGS or hand.counts[seat][listed.rank] < listed.size:
            check_ranks_held(hand, seat, list(listed.ranks))
        last = hand.round_combo
        if last is not None and last not in listed.beaten:
            raise cannot_beat(listed, last)
        return listed, None
    check_seat(seat)  # a listed play's seat is one of the four; `Dispatch` checks it first
    if not action.cards and not action.ranks:
        raise IllegalAction("bad_action", "a play needs its cards", act="play")
    check_turn(hand, seat)
    combo: Combo | None
    if action.cards:
        # Suits never matter: a card written with a suit means its rank. The cards named
        # are taken when held, else any of those ranks (S7 takes any 7 held).
        cards: tuple[Card, ...] | None = action.cards
        ranks = sorted(RANK_INDEX[c.rank] for c in action.cards)
        if not holds_cards(hand, seat, action.cards):
            check_ranks_held(hand, seat, ranks)
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
        check_ranks_held(hand, seat, ranks)
    if combo is None:
        shown = " ".join(RANKS[r] for r in ranks)
        raise IllegalAction(
            "not_a_combination",
            f"{shown} is not a combination: one rank only (single, pair, triple, bomb) "
            "or four kings",
            ranks=[RANKS[r] for r in ranks],
        )
    last = hand.round_combo
    if last is not None and not combo.beats(last):
        raise cannot_beat(combo, last)
    return combo, cards


def check_ranks_held(hand: SituanHand, seat: int, ranks: list[int]) -> None:
    counts = hand.counts[seat]
    for rank in set(ranks):
        wanted = ranks.count(rank)
        if counts[rank] < wanted:
            raise IllegalAction(
                "not_in_hand",
                f"seat {seat} holds {counts[rank]} of {RANKS[rank]}, not {wanted}",
                seat=seat,
                rank=RANKS[rank],
                held=counts[rank],
                wanted=wanted,
            )


def play(hand: SituanHand, action: Play) -> list[SituanEvent]:
    combo, cards = check_play(hand, action)
    events: list[SituanEvent] = []
    if hand.auto[action.seat]:  # most players are not on 托管: no call
        hand.own_action(action.seat, events)
    place(hand, action.seat, combo, cards, events)
    return events


def holds_cards(hand: SituanHand, seat: int, cards: tuple[Card, ...]) -> bool:
    needed: dict[Card, int] = {}
    for c in cards:
        needed[c] = needed.get(c, 0) + 1
    piles = hand.piles[seat]
    return all(piles[RANK_INDEX[c.rank]].count(c) >= n for c, n in needed.items())


def take_kings(
    hand: SituanHand, holding: Holding, cards: tuple[Card, ...] | None
) -> tuple[Card, ...]:
    """The four kings leave the seat's hand card by card, each from its rank's pile."""
    for rank in FOUR_KINGS.ranks:
        hand.played_counts[rank] += 1
    if cards is None:
        return tuple([holding.take(rank, 1, None)[0] for rank in FOUR_KINGS.ranks])
    for c in cards:
        holding.take(RANK_OF_CARD[c], 1, (c,))
    return cards


def place(
    hand: SituanHand,
    seat: int,
    combo: Combo,
    cards: tuple[Card, ...] | None,
    events: list[SituanEvent],
) -> None:
    holding = hand.holdings[seat]
    if combo.kind != KINGS:  # one rank: most plays, taken by slices rather than card by card
        taken = holding.take(combo.rank, combo.size, cards)
        hand.played_counts[combo.rank] += combo.size
    else:
        taken = take_kings(hand, holding, cards)
    hand.hand_cards[seat] = None
    held = hand.held[seat] = hand.held[seat] - combo.size
    points = combo.points
    if points:  # most plays carry none
        hand.hand_points[seat] -= points
        hand.table_points += points
    hand.round_combo = combo
    hand.round_seat = seat
    entry = (seat, combo)
    hand.round_plays.append(entry)
    hand.plays.append(entry)
    hand.passes = 0
    if combo.dun is not None:
        hand.played_duns[seat] += (combo.dun,)
    events.append(Played(seat, combo, taken))
    if held <= hand.rules.announce_at:
        hand.announced[seat] = held
        if held:
            events.append(CountAnnounced(seat, held))
        else:
            go_out(hand, seat, events)
            if hand.over:
                hand.last_round = tuple(hand.round_plays)
                return
    hand.turn = hand.next_holder[seat]


def go_out(hand: SituanHand, seat: int, events: list[SituanEvent]) -> None:
    """``seat`` has played its last card: its place, the seats the turn passes to, and
    perhaps the end of the hand."""
    hand.finish.append(seat)
    events.append(WentOut(seat, len(hand.finish)))
    hand.holding_count -= 1
    hand.next_holder = next_holders(hand.held)
    ending.check_end(hand, events)


def record_pass(hand: SituanHand, seat: int, events: list[SituanEvent]) -> None:
    entry = PASS_ENTRIES[seat]
    hand.round_plays.append(entry)
    hand.plays.append(entry)
    events.append(PASSED[seat])
    passes = hand.passes = hand.passes + 1
    last_seat = hand.round_seat
    assert last_seat is not None
    # The round goes on until every other seat still holding cards has passed.
    if passes < hand.holding_count - (hand.held[last_seat] > 0):
        hand.turn = hand.next_holder[seat]
        return
    points = hand.table_points
    hand.captured[last_seat] += points
    hand.table_points = 0
    hand.last_round = tuple(hand.round_plays)
    hand.round_combo = None
    hand.round_seat = None
    hand.round_plays = []
    hand.passes = 0
    leader = round_leader(hand.held, last_seat, hand.rules.lead_after_out)
    events.append(RoundWon(last_seat, points, leader, hand.last_round))
    hand.turn = leader
    if hand.finish and hand.rules.early_end:
        ending.check_end(hand, events)


def next_holders(held: Sequence[int]) -> list[int]:
    """`holding_after` each seat: changes only when a seat goes out."""
    return [holding_after(held, seat) for seat in range(4)]


def holding_after(held: Sequence[int], seat: int) -> int:
    """The next seat in turn order that still holds cards (``seat`` itself if none does)."""
    for step in (1, 2, 3):
        nxt = (seat + step) & 3
        if held[nxt]:
            return nxt
    return seat


def round_leader(held: Sequence[int], winner: int, lead_after_out: str) -> int:
    """Who leads after ``winner`` took the round: the winner, or when out of cards its
    partner (接风, ``lead_after_out = partner``) or the next player holding cards."""
    if held[winner]:
        return winner
    partner = (winner + 2) & 3
    if lead_after_out == "partner" and held[partner]:
        return partner
    return holding_after(held, winner)


def cannot_beat(combo: Combo, last: Combo) -> IllegalAction:
    return IllegalAction(
        "cannot_beat",
        f"{combo.name()} does not beat {last.name()}",
        play=combo.rank_text(),
        last=last.rank_text(),
        play_kind=combo.kind,
        last_kind=last.kind,
    )
