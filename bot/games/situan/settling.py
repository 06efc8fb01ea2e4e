"""四团's settlement in words: the outcome (who won and why: 上游 with 200 or more,
双关…), the teams' points and bonuses, every amount the settlement names, and the footer of
its picture."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from bot.i18n import N_, t
from bot.views.shared_texts import (
    player_lines,
)
from engine.situan import SituanResult
from engine.situan.outcome import win_threshold
from engine.situan.result import TEAM_NAMES


def settlement_text(
    lang: str,
    result: SituanResult,
    names: Sequence[str],
    totals: Sequence[Fraction],
    running: Sequence[Fraction],
) -> str:
    """The hand's settlement: a line per player with the hand, the 墩 bonus and the total."""
    # "Hand over." is shared with 二七王, and tests of both pin it as the settlement's start.
    return "\n".join(
        [
            t(lang, "Hand over."),
            *outcome_lines(lang, result, names),
            *_rest(lang, result, names, totals, running),
        ]
    )


REASONS = {
    "double": N_("双关: both partners out first"),
    "points": N_("three out, on points"),
    "decided": N_("decided early"),
}
"""Why a team won, said in the settlement and under its picture."""


def outcome_lines(lang: str, result: SituanResult, names: Sequence[str] = ()) -> list[str]:
    """Who won and why, and the points that decided it: the series' totals when a
    carried-over series ends here, with this hand's beside them. A hand decided early says
    why it could end there: who went out first, and the points the winner has whatever is
    still played (with ``names``)."""
    a, b = result.team_points
    before = result.carried_in
    if result.winner is None:
        if before is None:
            return [t(lang, "No team reached 200 (A {a}, B {b}): carried over.", a=a, b=b)]
        assert result.carry is not None
        return [
            t(
                lang,
                "The series is level (A {sa}, B {sb}; this hand A {a}, B {b}): one more hand.",
                sa=result.carry[0],
                sb=result.carry[1],
                a=a,
                b=b,
            )
        ]
    if result.ended_by == "double":  # the points taken so far decide nothing: say so
        return [
            t(
                lang,
                "Team {team} wins by 双关: both its players went out first, so the "
                "points (A {a}, B {b}) do not count.",
                team=result.winner,
                a=a,
                b=b,
            )
        ]
    lines = [won_text(lang, result)]
    if result.ended_by == "decided":
        winner = TEAM_NAMES.index(result.winner)
        threshold = win_threshold(winner, before)
        first = result.finish[0] if result.finish else None
        if names and first is not None and first % 2 == winner:  # A: seats 0 and 2
            lines[0] = t(
                lang,
                "Team {team} wins before the end: {name} went out first, and "
                "the team has at least {threshold} points whatever is still played.",
                team=result.winner,
                name=names[first],
                threshold=threshold,
            )
        else:
            lines[0] = t(
                lang,
                "Team {team} wins before the end: it has at least {threshold} "
                "points whatever is still played.",
                team=result.winner,
                threshold=threshold,
            )
    if before is None:
        lines.append(t(lang, "Points: A {a}, B {b}.", a=a, b=b))
    else:
        lines.append(
            t(
                lang,
                "Series: A {sa}, B {sb} (this hand: A {a}, B {b}).",
                sa=before[0] + a,
                sb=before[1] + b,
                a=a,
                b=b,
            )
        )
    return lines


def won_text(lang: str, result: SituanResult) -> str:
    assert result.winner is not None
    reason = t(lang, REASONS[result.ended_by])
    return t(lang, "Team {team} wins ({reason})", team=result.winner, reason=reason)


def footer_text(lang: str, result: SituanResult) -> str:
    """The settlement picture's one line: who won, why, and the points that decided it."""
    if result.winner is None:
        return outcome_lines(lang, result)[0]
    a, b = result.team_points
    before = result.carried_in
    if before is None or result.ended_by == "double":
        points = t(lang, "points A {a} · B {b}", a=a, b=b)
    else:
        points = t(lang, "series A {sa} · B {sb}", sa=before[0] + a, sb=before[1] + b)
    return f"{won_text(lang, result)} · {points}"


def _rest(
    lang: str,
    result: SituanResult,
    names: Sequence[str],
    totals: Sequence[Fraction],
    running: Sequence[Fraction],
) -> list[str]:
    lines = []
    if result.ended_by == "points":
        lines += _counted_lines(lang, result, names)
    lines += player_lines(lang, names, result.stakes, result.bonus, t(lang, "墩"), totals, running)
    return lines


def _counted_lines(lang: str, result: SituanResult, names: Sequence[str]) -> list[str]:
    """Where the points went beyond each player's own once three were out: the team totals
    above hold them, and without these lines they look miscounted."""
    first, last = result.finish[0], result.finish[3]
    lines = []
    taken, bottom = result.captured[last], result.bottom_points
    said = {"first": names[first], "last": names[last], "taken": taken, "bottom": bottom}
    if taken and bottom:
        lines.append(
            t(
                lang,
                "{first} went out first (上游): {first} also takes {last}'s {taken} "
                "captured points and the bottom's {bottom}.",
                **said,
            )
        )
    elif taken:
        lines.append(
            t(
                lang,
                "{first} went out first (上游): {first} also takes {last}'s {taken} "
                "captured points.",
                **said,
            )
        )
    elif bottom:
        lines.append(
            t(
                lang,
                "{first} went out first (上游): {first} also takes the bottom's {bottom} points.",
                **said,
            )
        )
    if result.remaining:
        team = "B" if last % 2 == 0 else "A"
        lines.append(
            t(
                lang,
                "{name} still held {points} points: they go to team {team}.",
                name=names[last],
                points=result.remaining,
                team=team,
            )
        )
    return lines
