"""四团 on the web table (`bot.games.board`): counts as the table message writes them
(报牌), the round on the table and the last one, points, the 亮牌 and 亮墩, the hand by
rank."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.board import Board, Played, Shown
from bot.games.situan import texts
from bot.i18n import t
from engine.situan import RANKS, Combo, SituanView


def plays_of(plays: Sequence[tuple[int, Combo | None]]) -> tuple[Played, ...]:
    """A round's plays by rank (suits never matter), a pass as a pass."""
    return tuple(
        Played(seat, passed=True)
        if combo is None
        else Played(seat, tuple(RANKS[r] for r in combo.ranks))
        for seat, combo in plays
    )


def board(lang: str, view: SituanView, names: Sequence[str]) -> Board:
    marks: list[tuple[str, ...]] = []
    for seat in range(4):
        seat_marks = [t(lang, "Team {team}", team="A" if seat % 2 == 0 else "B")]
        if seat in view.finish:
            place = view.finish.index(seat) + 1
            seat_marks.append(t(lang, texts.PLACES.get(place, texts.LAST_PLACE)))
        marks.append(tuple(seat_marks))
    ended_with_it = view.result is not None and tuple(view.round_plays) == tuple(view.last_round)
    now = () if ended_with_it else plays_of(view.round_plays)
    lines = [*texts.opening_lines(lang, view, names), *texts.points_lines(lang, view, names)]
    shown: list[Shown] = []
    if view.revealed is not None:
        label = t(lang, "Shown hand of {name}", name=names[view.revealed])
        shown.append(Shown(label, tuple(c.rank for c in view.revealed_hand)))
    for partner, cards in view.show_seen.items():  # this seat's own 亮牌 sight
        label = t(lang, "Your partner {name} holds", name=names[partner])
        shown.append(Shown(label, tuple(c.rank for c in cards)))
    if view.bottom:
        shown.append(Shown(t(lang, "The bottom"), tuple(c.rank for c in view.bottom)))
    return Board(
        counts=tuple(texts.count_shown(lang, view, seat) for seat in range(4)),
        marks=tuple(marks),
        trick_title=t(lang, "This round"),
        trick=now,
        last_title=t(lang, "Last round"),
        last=plays_of(view.last_round),
        last_line=texts.last_round_line(lang, view.last_round, names) if view.last_round else "",
        lines=tuple(lines),
        shown=tuple(shown),
        hand=tuple(str(c) for c in view.hand),
        by_rank=True,
    )
