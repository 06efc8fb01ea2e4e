"""Building 四团 hands from literal cards for rule tests."""

from __future__ import annotations

from typing import Any

import pytest

from engine.cards import SUITS, Card, card, parse_cards, parse_rank_run
from engine.errors import IllegalAction
from engine.situan import Deal, Rules, SituanHand
from engine.situan.events import SituanEvent
from engine.situan.record import read_play_cards
from tests.record_actions import Action, outcome


def cards(text: str) -> tuple[Card, ...]:
    """Exact cards: ``cards("S7 H7 LJ")``."""
    return tuple(parse_cards(text))


def ranks(text: str) -> tuple[Card, ...]:
    """Cards written by rank alone (``"7777 5 KK"``); suits are given in turn ♠♥♣♦."""
    out: list[Card] = []
    seen: dict[str, int] = {}
    for token in text.split():
        for rank in parse_rank_run(token):
            if rank in ("LJ", "BJ"):
                out.append(card(rank))
                continue
            n = seen.get(rank, 0)
            seen[rank] = n + 1
            out.append(card(SUITS[n % 4] + rank))
    return tuple(out)


def table(
    *hands: str,
    bottom: str = "",
    first: int = 0,
    carry: tuple[int, int] | None = None,
    preset: str = "nanchang",
    **options: Any,
) -> SituanHand:
    """A hand with the given holdings (by rank), e.g. ``table("7777 3", "5", "4", "6")``."""
    assert len(hands) == 4
    deal = Deal(tuple(ranks(h) for h in hands), ranks(bottom))
    return SituanHand(Rules.from_preset(preset, **options), deal, first, carry)


def play(hand: SituanHand, seat: int, text: str) -> list[SituanEvent]:
    cards_, ranks_ = read_play_cards(text)
    return hand.apply(Action(seat, "play", cards=cards_, ranks=ranks_))


def pass_(hand: SituanHand, seat: int) -> list[SituanEvent]:
    return hand.apply(Action(seat, "pass"))


def script(hand: SituanHand, steps: str) -> list[SituanEvent]:
    """Apply ``"0:7777; 1:pass; 2:88888"`` in order; returns all events."""
    events: list[SituanEvent] = []
    for step in steps.split(";"):
        seat_text, what = step.strip().split(":", 1)
        seat = int(seat_text)
        events += pass_(hand, seat) if what.strip() == "pass" else play(hand, seat, what.strip())
    return events


def snapshot(hand: SituanHand) -> tuple[object, ...]:
    return (
        hand.phase, hand.turn, tuple(hand.held), tuple(hand.cards_of(s) for s in range(4)),
        tuple(hand.captured), tuple(hand.finish), tuple(hand.round_plays), hand.table_points,
        len(hand.history), tuple(hand.timeouts), tuple(hand.auto), hand.show_by, hand.revealed,
        outcome(hand),
    )  # fmt: skip


def refused(hand: SituanHand, action: Action) -> str:
    """Apply an action the rules must refuse; check nothing changed; return the error code."""
    before = snapshot(hand)
    with pytest.raises(IllegalAction) as refusal:
        hand.apply(action)
    assert snapshot(hand) == before
    return refusal.value.code


def refused_play(hand: SituanHand, seat: int, text: str) -> str:
    cards_, ranks_ = read_play_cards(text)
    return refused(hand, Action(seat, "play", cards=cards_, ranks=ranks_))
