"""二七王 hints in words: the move, and why — read from the seat's view only (the trumps
the seat has not seen, the points in the trick, its own cards)."""

from __future__ import annotations

from bot.games.erqiwang.texts import suit_text
from bot.i18n import N_, t
from bot.views.hint_texts import hint_line
from bot.views.shared_texts import cards_text
from engine.actions import Action, Bid, Bury, DeclareBonus, NameTrump, Pass, Play, Surrender
from engine.ai.erqiwang.unseen import unseen_cards
from engine.ai.search_decision import Weighing
from engine.cards import Card
from engine.erqiwang import ErqiwangView
from engine.erqiwang.bonus import bonus_of
from engine.erqiwang.order import TRUMP

ALWAYS_TRUMP = frozenset({"LJ", "BJ", "7", "2"})
"""Ranks that are trump whatever suit is named (the jokers, every 7 and 2)."""


def hint_text(lang: str, view: ErqiwangView, move: Action, weighing: Weighing) -> str:
    clauses = _play_why(lang, view) if isinstance(move, Play) else [why(lang, view, move)]
    return hint_line(lang, move_text(lang, move), clauses, weighing)


def move_text(lang: str, move: Action) -> str:
    if isinstance(move, Play):
        return t(lang, "play {cards}", cards=cards_text(lang, move.cards))
    if isinstance(move, Bury):
        return t(lang, "bury {cards}", cards=cards_text(lang, move.cards))
    if isinstance(move, Bid):
        return t(lang, "bid {points}", points=move.points)
    if isinstance(move, Pass):
        return t(lang, "no bid")
    if isinstance(move, NameTrump):
        return t(lang, "name trump {suit}", suit=suit_text(lang, move.suit))
    if isinstance(move, DeclareBonus):
        return t(lang, "declare 冲关 (/bonus)")
    if isinstance(move, Surrender):
        return t(lang, "surrender")
    return f"/{move.act}"


def why(lang: str, view: ErqiwangView, move: Action) -> str | None:
    """What the seat's view says of a move other than a play, in one clause."""
    if isinstance(move, (Bid, Pass)):
        fixed = sum(1 for c in view.hand if c.rank in ALWAYS_TRUMP)
        return t(
            lang,
            N_("your hand holds {trumps} jokers, 7s and 2s and {points} points"),
            trumps=fixed,
            points=sum(c.points for c in view.hand),
        )
    if isinstance(move, NameTrump):
        if move.suit == "none":
            return None
        held = sum(1 for c in view.hand if c.suit == move.suit and c.rank not in ALWAYS_TRUMP)
        return t(lang, N_("you hold {count} cards of that suit"), count=held)
    if isinstance(move, Bury):
        return t(
            lang,
            N_("these put {points} points in the bottom and keep your trumps"),
            points=sum(c.points for c in move.cards),
        )
    if isinstance(move, DeclareBonus):
        bonus = bonus_of(view.hand, view.trump)
        return (
            None
            if bonus is None
            else t(lang, N_("your hand holds {bonus}"), bonus=t(lang, bonus.name))
        )
    return None


def _play_why(lang: str, view: ErqiwangView) -> list[str]:
    """The trick's points, whose side is winning it, and the trumps still out."""
    clauses = []
    points = sum(c.points for _, cards in view.trick for c in cards)
    if view.trick and points:
        clauses.append(t(lang, N_("the trick holds {points} points"), points=points))
    best, declarer, seat = view.best_seat, view.declarer, view.seat
    if (
        view.trick
        and best is not None
        and best != seat
        and (best == declarer) == (seat == declarer)
    ):
        clauses.append(t(lang, N_("your side is winning this trick")))
    trumps = _unseen_trumps(view)
    if seat == declarer:  # the declarer has seen the bottom: the rest is in the defenders' hands
        clauses.append(t(lang, N_("the defenders still hold {trumps} trumps"), trumps=trumps))
    else:
        clauses.append(t(lang, N_("{trumps} trumps you do not hold are still out"), trumps=trumps))
    return clauses


def _unseen_trumps(view: ErqiwangView) -> int:
    suit = view.order.suit
    return sum(n for c, n in unseen_cards(view).items() if _is_trump(c, suit))


def _is_trump(c: Card, suit: dict[Card, str]) -> bool:
    return suit[c] == TRUMP
