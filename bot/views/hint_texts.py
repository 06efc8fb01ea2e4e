"""The words of a hint: the move, and one line of why — what the game's front reads in the
seat's view (`bot.games.situan.hints`, `bot.games.erqiwang.hints`), then what the search saw
(`engine.ai.search_decision.Weighing`)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import N_, t
from engine.ai.search_decision import Weighing

HINT = N_("Hint: {move}. Why: {why}.")
CLAUSE_JOINER = {"zh-Hans": "；", "zh-Hant": "；"}
"""Between the clauses of a why-line (English: ``; ``)."""


def search_clause(lang: str, weighing: Weighing) -> str | None:
    """What the search saw, when it weighed anything: on how many deals of the cards the
    seat cannot see the moves were played out, and whether this one beat the plain choice."""
    if not weighing.samples or weighing.candidates < 2:
        return None
    key = (
        N_("played out on {deals} deals of the cards you cannot see, it did best of {moves} moves")
        if weighing.replaced
        else N_(
            "played out on {deals} deals of the cards you cannot see, no other move did "
            "clearly better"
        )
    )
    return t(lang, key, deals=weighing.samples, moves=weighing.candidates)


def hint_line(lang: str, move: str, clauses: Sequence[str | None], weighing: Weighing) -> str:
    """``Hint: <move>. Why: <the view's clauses>; <the search's>.``"""
    said = [c for c in (*clauses, search_clause(lang, weighing)) if c]
    if not said:
        said = [t(lang, "it is the move the hard AI player would make")]
    why = CLAUSE_JOINER.get(lang, "; ").join(said)
    return t(lang, HINT, move=move, why=why)
