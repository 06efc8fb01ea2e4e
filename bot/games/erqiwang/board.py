"""二七王 on the web table (`bot.games.board`): the trick and the last one, the auction,
declarer, bid and trump, the defenders' points, 冲关, the bottom, the hand as held
(trumps first)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.board import Board, Played, Shown, texts_of
from bot.games.erqiwang import texts
from bot.i18n import t
from engine.cards import Card
from engine.erqiwang import ErqiwangView
from engine.erqiwang.phases import Phase


def plays_of(plays: Sequence[tuple[int, Sequence[Card]]]) -> tuple[Played, ...]:
    return tuple(Played(seat, texts_of(cards)) for seat, cards in plays)


def bids_of(bids: Sequence[tuple[int, int | None]], lang: str) -> tuple[Played, ...]:
    """The auction so far, each bid as its words (a seat's newest is the one shown)."""
    return tuple(
        Played(seat, passed=points is None, said=texts.bid_text(lang, points))
        for seat, points in bids
    )


def board(lang: str, view: ErqiwangView, names: Sequence[str]) -> Board:
    marks: list[tuple[str, ...]] = []
    for seat in range(4):
        seat_marks = []
        if seat == view.declarer:
            seat_marks.append(t(lang, "Declarer"))
        if seat in view.bonuses:
            seat_marks.append(t(lang, view.bonuses[seat][0]))
        marks.append(tuple(seat_marks))
    last, _ = texts.last_trick(view)
    finished = view.result is not None and bool(view.trick)
    bidding = view.phase == Phase.BIDDING
    shown = [
        Shown(f"{names[seat]} · {t(lang, name)}", texts_of(cards))
        for seat, (name, _, cards) in view.bonuses.items()
    ]
    if view.bottom_shown and view.phase in (Phase.TRUMP, Phase.BURY):
        shown.append(Shown(t(lang, "The bottom"), texts_of(view.bottom_shown)))
    if view.buried:  # the declarer's own, or everyone's once the hand is over
        shown.append(Shown(t(lang, "Buried"), texts_of(view.buried)))
    hand = list(view.hand)
    groups = ["T" if view.order.is_trump(c) else c.suit for c in hand]
    return Board(
        counts=tuple(str(count) for count in view.counts),
        marks=tuple(marks),
        trick_title=t(lang, "This trick"),
        trick=bids_of(view.bids, lang) if bidding else () if finished else plays_of(view.trick),
        last_title=t(lang, "Last trick"),
        last=plays_of(last),
        last_line=texts.last_trick_line(lang, view, names),
        lines=(*texts.contract_lines(lang, view, names), *texts.standing_lines(lang, view, names)),
        shown=tuple(shown),
        hand=texts_of(hand),
        breaks=tuple(i for i in range(1, len(hand)) if groups[i] != groups[i - 1]),
    )
