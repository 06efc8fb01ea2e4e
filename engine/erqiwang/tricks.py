"""Tricks: leading and following, who is winning, the trick's points, and the 无主
announcements (seed 003 rule 7) that plays bring about."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from engine.actions import Play
from engine.cards import ALL_CARDS, Card
from engine.dispatch import check_seat
from engine.erqiwang.events import (
    ErqiwangEvent,
    Played,
    ThrowFailed,
    TrickWon,
    TrumpCounts,
    TrumpVoid,
)
from engine.erqiwang.follow import follow_error
from engine.erqiwang.leads import LeadRefusal, check_lead
from engine.erqiwang.order import TRUMP
from engine.erqiwang.phases import PLAY
from engine.erqiwang.shapes import Shape, shape_of, single_shape
from engine.errors import IllegalAction

if TYPE_CHECKING:
    from engine.erqiwang.hand import ErqiwangHand


class FailedThrow:
    """A throw accepted as failed (``failed_throw = smallest``): the cards led instead."""

    __slots__ = ("played", "shape")

    def __init__(self, played: tuple[Card, ...], shape: Shape) -> None:
        self.played = played
        self.shape = shape


def check_play(hand: ErqiwangHand, action: Play) -> Shape | FailedThrow | None:
    """The shape of a legal lead (None for a legal follow; a `FailedThrow` for a throw that
    fails under ``failed_throw = smallest``); raises `IllegalAction`."""
    cards = action.cards
    if not cards:
        raise IllegalAction("bad_action", "a play needs its cards")
    if hand.phase != PLAY:
        hand.require_phase(PLAY)
    seat = action.seat
    if seat != hand.turn:
        hand.require_turn(seat)
    missing = hand.missing(seat, cards)
    if missing:
        raise IllegalAction(
            "not_in_hand",
            f"seat {seat} does not hold {' '.join(c.text for c in missing)}",
            seat=seat,
            cards=[c.text for c in missing],
        )
    if hand.lead_shape is None:
        try:
            return check_lead(
                cards, hand.order, hand.rules.throw, partial(hand.others_threats, seat)
            )
        except LeadRefusal as refusal:
            if refusal.lowest is not None and hand.rules.failed_throw == "smallest":
                played = refusal.lowest[2]
                return FailedThrow(played, shape_of(played, hand.order))
            raise IllegalAction(refusal.code, refusal.message, **refusal.facts) from None
    assert hand.lead_suit is not None
    held = hand.by_suit[seat].get(hand.lead_suit, [])
    code = follow_error(cards, held, hand.lead_shape, hand.lead_suit, hand.order)
    if code is not None:
        raise IllegalAction(code, _follow_refusal(hand, code), **_follow_facts(hand, held))
    return None


def _follow_facts(hand: ErqiwangHand, held: list[Card]) -> dict[str, object]:
    assert hand.lead_shape is not None
    return {
        "count": hand.lead_shape.size,
        "suit": "trump" if hand.lead_suit == TRUMP else hand.lead_suit,
        "held": len(held),
    }


def _follow_refusal(hand: ErqiwangHand, code: str) -> str:
    assert hand.lead_shape is not None
    n = hand.lead_shape.size
    if code == "wrong_count":
        return f"play {n} card{'s' if n > 1 else ''}, as many as the lead"
    suit_name = "trump" if hand.lead_suit == TRUMP else hand.lead_suit
    if code == "must_follow_suit":
        return f"you must follow {suit_name} with as many of its cards as you can"
    return f"you must follow the lead's pairs and tractors in {suit_name} as far as you can"


SINGLES_PLAYED: tuple[dict[Card, Played], ...] = tuple(
    {c: Played(seat, (c,)) for c in ALL_CARDS} for seat in range(4)
)
"""The event of a single card played, made once per seat and card as the plays of one card
are (`engine.erqiwang.legal`): most plays are singles, and an event is never changed."""


def play(hand: ErqiwangHand, action: Play) -> list[ErqiwangEvent]:
    cards, seat = action.cards, action.seat
    if len(cards) == 1 and seat == hand.turn and type(seat) is int and hand.phase == PLAY:
        # Most plays are one card by the seat to play, judged here as `check_play` would: a
        # single led is always legal (what `check_lead` finds), and a single answering a
        # single is legal iff of the led suit or void of it. The card is then taken out of
        # the held cards of its suit, which finds whether it is held (a card the order does
        # not know is held by nobody): if not, nothing changed, and `check_play` says why.
        card = cards[0]
        suit = hand.order.suit.get(card)
        groups = hand.by_suit[seat]
        held = groups.get(suit)  # type: ignore[arg-type]
        lead, lead_suit = hand.lead_shape, hand.lead_suit
        if held is not None and (
            lead is None or (lead.size == 1 and (suit == lead_suit or not groups.get(lead_suit)))  # type: ignore[arg-type]
        ):
            try:
                held.remove(card)
            except ValueError:
                pass
            else:
                return _play_single(hand, action, card, suit, held, lead_suit)  # type: ignore[arg-type]
    check_seat(seat)  # a seat that is the turn's is one (a bool or a float is not)
    checked = check_play(hand, action)
    events: list[ErqiwangEvent] = []
    if hand.auto[seat]:
        hand.own_action(seat, events)
    if isinstance(checked, FailedThrow):
        # The attempt is recorded as made: replaying it fails the same way.
        events.append(ThrowFailed(seat, cards, checked.played))
        place(hand, seat, checked.played, checked.shape, events)
    else:
        place(hand, seat, cards, checked, events)
    hand.history.append(action)
    return events


def _play_single(
    hand: ErqiwangHand, action: Play, card: Card, suit: str, held: list[Card], lead_suit: str | None
) -> list[ErqiwangEvent]:
    """`place` for one legal card led (``lead_suit`` None), or answering a single, already
    taken out of ``held`` (the seat's cards of its suit): the lead or the comparison needs
    only the card's following-suit (``suit``) and level."""
    seat = action.seat
    played = SINGLES_PLAYED[seat][card]
    events: list[ErqiwangEvent]
    if hand.auto[seat]:
        events = []
        hand.own_action(seat, events)
        events.append(played)
    else:
        events = [played]
    hand.card_left(seat, card, suit, held)
    hand.played_cards.append(card)
    hand.has_played[seat] = True
    top = hand.order.position[card]
    if lead_suit is None:  # led
        hand.lead_shape = single_shape(card, hand.order)
        hand.lead_suit = suit
        hand.best = (seat, False, top)
    else:
        _compare_single(hand, seat, suit, top)
    trick = hand.trick
    trick.append((seat, action.cards))
    hand.trick_points += card.points
    # A seat not yet announced void of trump holds some: only a trump played can change that,
    # or the trump counts (`place` judges every play so).
    if suit == TRUMP and not hand.void_announced[seat]:
        _after_trump_played(hand, seat, events)
    if len(trick) < 4:
        hand.turn = hand.to_act = (seat + 1) & 3  # `pass_turn`, inlined
    else:
        _close_trick(hand, events)
    hand.history.append(action)
    return events


def _after_trump_played(hand: ErqiwangHand, seat: int, events: list[ErqiwangEvent]) -> None:
    """A seat not announced void played trump: announce it void if it has none left, and
    the trump counts when they may have changed (two players void)."""
    if not hand.by_suit[seat].get(TRUMP):
        hand.void_announced[seat] = True
        events.append(TrumpVoid(seat))
    if sum(hand.void_announced) >= 2:
        announce_trump_counts(hand, events)


def place(
    hand: ErqiwangHand,
    seat: int,
    cards: tuple[Card, ...],
    shape: Shape | None,
    events: list[ErqiwangEvent],
) -> None:
    """Put a checked play on the table (``shape``: the lead's, or None for a follow)."""
    played_trump = hand.remove_cards(seat, cards)
    hand.played_cards.extend(cards)
    hand.has_played[seat] = True
    lead = hand.lead_shape
    if len(cards) == 1:
        first = cards[0]
        events.append(SINGLES_PLAYED[seat][first])
        if lead is not None and lead.size == 1:  # a single answering a single (托管's)
            _compare_single(hand, seat, hand.order.suit[first], hand.order.position[first])
        elif shape is None:
            _compare(hand, seat, cards)
    else:
        events.append(Played(seat, cards))
        if shape is None:
            _compare(hand, seat, cards)
    if shape is not None:  # a lead
        hand.lead_shape = shape
        hand.lead_suit = hand.order.suit[cards[0]]
        hand.best = (seat, False, shape.top_position())
    trick = hand.trick
    trick.append((seat, cards))
    for c in cards:
        hand.trick_points += c.points
    if played_trump and not hand.void_announced[seat]:  # see `_play_single`
        _after_trump_played(hand, seat, events)
    if len(trick) < 4:
        hand.turn = hand.to_act = (seat + 1) & 3  # `pass_turn`, inlined
        return
    _close_trick(hand, events)


def _compare_single(hand: ErqiwangHand, seat: int, suit: str, top: int) -> None:
    """`_compare` for a single answering a single led: only the card's following-suit and
    position matter. Of the led suit it beats a higher best of that suit; a trump ruffing a
    side suit beats any best not a ruff, or a lower ruff."""
    best = hand.best
    assert best is not None
    if suit == hand.lead_suit:
        if not best[1] and top > best[2]:
            hand.best = (seat, False, top)
    elif suit == TRUMP and (not best[1] or top > best[2]):  # a ruff
        hand.best = (seat, True, top)


def _compare(hand: ErqiwangHand, seat: int, cards: tuple[Card, ...]) -> None:
    lead, best = hand.lead_shape, hand.best
    assert lead is not None and best is not None
    if lead.components > 1:
        return  # an allowed throw always wins its trick
    order = hand.order
    suit = order.suit[cards[0]]
    if len(set(map(order.suit.__getitem__, cards))) > 1:  # of two following-suits: no match
        return
    ruff = suit == TRUMP and hand.lead_suit != TRUMP
    if suit != hand.lead_suit and not ruff:
        return
    shape = shape_of(cards, order)  # singles led go through `_compare_single`
    if shape.signature != lead.signature:
        return
    top = shape.top_position()
    _, best_is_ruff, best_top = best
    if (ruff and not best_is_ruff) or (ruff == best_is_ruff and top > best_top):
        hand.best = (seat, ruff, top)


def _close_trick(hand: ErqiwangHand, events: list[ErqiwangEvent]) -> None:
    assert hand.best is not None
    winner = hand.best[0]
    points = hand.trick_points
    by_defenders = winner != hand.declarer
    if by_defenders:
        hand.trick_points_for_defenders += points
    events.append(TrickWon(winner, points, by_defenders, tuple(hand.trick)))
    hand.tricks_done += 1
    hand.last_trick = hand.trick
    if not hand.hands[winner]:
        hand.finish(events)
        return
    hand.tricks.append(hand.trick)
    hand.trick = []
    hand.trick_points = 0
    hand.lead_shape = None
    hand.lead_suit = None
    hand.best = None
    hand.turn = hand.to_act = winner  # `pass_turn`, inlined


def announce_voids(hand: ErqiwangHand, events: list[ErqiwangEvent]) -> None:
    for seat in range(4):
        if not hand.void_announced[seat] and not hand.suit_cards(seat, TRUMP):
            hand.void_announced[seat] = True
            events.append(TrumpVoid(seat))
    if sum(hand.void_announced) >= 2:
        announce_trump_counts(hand, events)


def announce_trump_counts(hand: ErqiwangHand, events: list[ErqiwangEvent]) -> None:
    """With two players void of trump, the others' trump counts and pairs, kept current."""
    counts: tuple[tuple[int, int, bool], ...] = ()
    for s in range(4):
        if not hand.void_announced[s]:
            counts += ((s, len(hand.suit_cards(s, TRUMP)), bool(hand.own_threat(s)[1])),)
    if counts != hand.trump_counts:
        hand.trump_counts = counts
        if counts:  # nobody left to report on once all four are void
            events.append(TrumpCounts(counts))
