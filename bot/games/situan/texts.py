"""四团 texts for people: combinations, holdings, the table message and the settlement."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

from bot.i18n import t
from bot.render import money, rank_text
from engine.cards import Card
from engine.situan import RANKS, Combo, SituanResult, SituanView


def combo_text(lang: str, combo: Combo) -> str:
    rank = rank_text(lang, RANKS[combo.rank])
    if combo.kind == "kings":
        return t(lang, "four kings")
    if combo.kind == "single":
        return t(lang, "single {rank}", rank=rank)
    if combo.kind == "pair":
        return t(lang, "pair of {rank}", rank=rank)
    return t(lang, "{count}×{rank}", count=combo.size, rank=rank)


def holding_text(lang: str, cards: Sequence[Card]) -> str:
    """四团 hands by rank with counts, the way players hold them: ``3×2 7×5 K LJ×3``."""
    counts = Counter(c.rank for c in cards)
    parts = []
    for rank in RANKS:
        if counts[rank]:
            name = rank_text(lang, rank)
            parts.append(name if counts[rank] == 1 else f"{name}×{counts[rank]}")
    return " ".join(parts) or "—"


def table_text(lang: str, view: SituanView, names: Sequence[str], number: int,
               seconds_left: int | None) -> str:  # fmt: skip
    lines = [t(lang, "四团 · hand {number}", number=number)]
    if view.phase == "show_pick":
        assert view.show_by is not None
        lines.append(t(lang, "{name} is choosing which hand to reveal.", name=names[view.show_by]))
    elif view.result is None:
        line = t(lang, "Turn: {name}", name=names[view.turn])
        if seconds_left is not None:
            line += " " + t(lang, "({seconds} s left)", seconds=seconds_left)
        lines.append(line)
    plays = []
    for seat, combo in view.round_plays:
        shown = t(lang, "pass") if combo is None else combo_text(lang, combo)
        plays.append(f"{names[seat]}: {shown}")
    if plays:
        lines.append(t(lang, "This round: {plays}", plays=" · ".join(plays)))
    counts = []
    for seat in range(4):
        count = view.counts[seat]
        if seat in view.finish:
            shown = t(lang, "out")
        elif count is None:
            shown = f">{view.announce_at}"
        else:
            shown = str(count)
        mark = " " + t(lang, "(auto)") if view.auto[seat] else ""
        counts.append(f"{names[seat]} {shown}{mark}")
    lines.append(t(lang, "Cards: {counts}", counts=" · ".join(counts)))
    team_a = view.captured[0] + view.captured[2]
    team_b = view.captured[1] + view.captured[3]
    lines.append(t(lang, "Points: team A {a} · team B {b}", a=team_a, b=team_b))
    if view.revealed is not None:
        lines.append(
            t(
                lang,
                "Shown hand of {name}: {cards}",
                name=names[view.revealed],
                cards=holding_text(lang, view.revealed_hand),
            )
        )
    return "\n".join(lines)


def settlement_text(lang: str, result: SituanResult, names: Sequence[str],
                    totals: Sequence[Fraction], running: Sequence[Fraction]) -> str:  # fmt: skip
    """The hand's settlement: a line per player with the hand, the 墩 bonus and the total."""
    lines = [t(lang, "Hand over.")]
    a, b = result.team_points
    if result.winner is None:
        lines.append(t(lang, "No team reached 200 (A {a}, B {b}): carried over.", a=a, b=b))
    else:
        how = {"double": t(lang, "双关"), "points": t(lang, "points"),
               "decided": t(lang, "decided early")}[result.ended_by]  # fmt: skip
        lines.append(
            t(
                lang,
                "Team {team} wins ({how}): A {a}, B {b}.",
                team=result.winner,
                how=how,
                a=a,
                b=b,
            )
        )
    for seat in range(4):
        lines.append(
            t(
                lang,
                "{name}: hand {hand}, {bonus_name} {bonus}, total {total} (match {match})",
                name=names[seat],
                hand=money(result.stakes[seat]),
                bonus_name=t(lang, "墩"),
                bonus=money(result.bonus[seat]),
                total=money(totals[seat]),
                match=money(running[seat]),
            )
        )
    return "\n".join(lines)
