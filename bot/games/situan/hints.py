"""四团 hints in words: the move, and why — read from the seat's view only (the round to
beat, its points, who holds it, the seat's own cards)."""

from __future__ import annotations

from bot.games.situan.texts import combo_text, play_text
from bot.i18n import N_, t
from bot.views.hint_texts import hint_line
from engine.actions import Action, Pass, Play, StartShow
from engine.ai.search_decision import Weighing
from engine.situan import SituanView
from engine.situan.combos import RANK_INDEX, Combo, combo_of_ranks


def hint_text(lang: str, view: SituanView, move: Action, weighing: Weighing) -> str:
    return hint_line(lang, move_text(lang, move), [why(lang, view, move)], weighing)


def move_text(lang: str, move: Action) -> str:
    combo = _combo(move)
    if combo is not None:
        return t(lang, "play {cards}", cards=play_text(lang, combo))
    if isinstance(move, Pass):
        return t(lang, "pass")
    if isinstance(move, StartShow):
        return t(lang, "start a 亮牌 (/show)")
    return f"/{move.act}"


def why(lang: str, view: SituanView, move: Action) -> str | None:
    """The round as the seat sees it, in one clause."""
    seat = view.seat
    points = view.table_points
    if isinstance(move, Pass):
        if seat is not None and view.round_seat == (seat + 2) % 4:
            return t(lang, N_("your partner is winning this round"))
        if points:
            return t(
                lang,
                N_("the {points} points of this round are not worth your cards"),
                points=points,
            )
        return t(lang, N_("this round has no points to fight for"))
    combo = _combo(move)
    if combo is None:
        return None
    if view.round_combo is not None:
        beaten = combo_text(lang, view.round_combo)
        if points:
            return t(
                lang,
                N_("it beats {beaten} and takes over a round worth {points} points"),
                beaten=beaten,
                points=points,
            )
        return t(lang, N_("it beats {beaten}; the round has no points yet"), beaten=beaten)
    held = [i for i, n in enumerate(view.hand_counts) if n]
    if held and combo.rank == min(held):
        return t(lang, N_("you have the lead: play your lowest cards first, keep the high ones"))
    return t(
        lang, N_("you have the lead, with {cards} cards in your hand"), cards=sum(view.hand_counts)
    )


def _combo(move: Action) -> Combo | None:
    if not isinstance(move, Play):
        return None
    ranks = move.ranks or tuple(c.rank for c in move.cards)
    return combo_of_ranks([RANK_INDEX[r] for r in ranks])
