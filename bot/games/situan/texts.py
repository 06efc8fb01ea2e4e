"""四团 texts for people: combinations, holdings, the table message and the settlement."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

from bot.i18n import N_, t
from bot.shared_texts import cards_text, player_lines, rank_text, unshown_closings
from engine.cards import Card
from engine.situan import RANKS, Combo, SituanResult, SituanView
from engine.situan.events import RoundWon, SituanEvent
from engine.situan.phases import Phase


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
    return ranks_text(lang, [c.rank for c in cards])


def ranks_text(lang: str, ranks: Sequence[str]) -> str:
    """Ranks by count, as `holding_text` writes a hand: ``7×4``, ``小王×2``."""
    counts = Counter(ranks)
    parts = []
    for rank in RANKS:
        if counts[rank]:
            name = rank_text(lang, rank)
            parts.append(name if counts[rank] == 1 else f"{name}×{counts[rank]}")
    return " ".join(parts) or "—"


def _plays(lang: str, plays: Sequence[tuple[int, Combo | None]], names: Sequence[str]) -> str:
    shown = []
    for seat, combo in plays:
        played = t(lang, "pass") if combo is None else combo_text(lang, combo)
        shown.append(t(lang, "{name}: {play}", name=names[seat], play=played))
    return " · ".join(shown)


LAST_ROUND = N_("Last round: {plays} → {name} takes {points}")


def last_round_line(lang: str, plays: Sequence[tuple[int, Combo | None]],
                    names: Sequence[str], key: str = LAST_ROUND) -> str:  # fmt: skip
    """The round just finished, whole: every play, who took it and its points."""
    played = [(seat, combo) for seat, combo in plays if combo is not None]
    winner = played[-1][0] if played else plays[-1][0]
    points = sum(combo.points for _, combo in played)
    return t(lang, key, plays=_plays(lang, plays, names), name=names[winner], points=points)


def earlier_round_lines(lang: str, earlier: Sequence[SituanEvent], view: SituanView,
                        names: Sequence[str]) -> list[str]:  # fmt: skip
    """The rounds closed (`RoundWon`) that no table state sent has shown, but the last."""
    key = N_("Earlier round: {plays} → {name} takes {points}")
    rounds = [e for e in earlier if isinstance(e, RoundWon)]
    missed = unshown_closings(rounds, view.last_round)
    return [last_round_line(lang, event.plays, names, key) for event in missed]


def opening_lines(lang: str, view: SituanView, names: Sequence[str]) -> list[str]:
    """Said with the deal: the flipped card that chose the first leader, and 亮墩 — every
    墩 dealt, shown to the table when play begins."""
    lines = []
    if view.flipped is not None:
        lines.append(t(lang, "Flipped card: {card} — {name} leads.",
                       card=cards_text(lang, [view.flipped]), name=names[view.first]))  # fmt: skip
    shown = [t(lang, "{name} ({dun})", name=names[s], dun=dun_text(lang, d))
             for s in range(4) for d in view.duns[s]]  # fmt: skip
    if shown and view.rules.dun_counted == "dealt":
        lines.append(t(lang, "墩 dealt: {duns}", duns=" · ".join(shown)))
    return lines


def dun_text(lang: str, dun: int | str) -> str:
    if dun == "KINGS4":
        return t(lang, "four kings")
    if dun == "LJ3":
        return t(lang, "three small jokers")
    return t(lang, "{count} of one rank", count=dun)


def table_text(lang: str, view: SituanView, names: Sequence[str], number: int,
               seconds_left: int | None,
               earlier: Sequence[SituanEvent] = ()) -> str:  # fmt: skip
    lines = [t(lang, "四团 · hand {number}", number=number)]
    if view.phase == Phase.SHOW_PICK:
        assert view.show_by is not None
        lines.append(t(lang, "{name} is choosing which hand to reveal.", name=names[view.show_by]))
    elif view.result is None:
        line = t(lang, "Turn: {name}", name=names[view.turn])
        if seconds_left is not None:
            line = t(lang, "Turn: {name} ({seconds} s left)", name=names[view.turn],
                     seconds=seconds_left)  # fmt: skip
        lines.append(line)
    lines += earlier_round_lines(lang, earlier, view, names)
    if view.last_round:
        lines.append(last_round_line(lang, view.last_round, names))
    ended_with_it = view.result is not None and tuple(view.round_plays) == tuple(view.last_round)
    plays = "" if ended_with_it else _plays(lang, view.round_plays, names)  # shown just above
    if plays:
        lines.append(t(lang, "This round: {plays}", plays=plays))
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
    a_names, b_names = f"{names[0]}, {names[2]}", f"{names[1]}, {names[3]}"
    lines.append(t(lang, "Points: team A ({a_names}) {a} · team B ({b_names}) {b}",
                   a_names=a_names, a=team_a, b_names=b_names, b=team_b))  # fmt: skip
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
    elif result.ended_by == "double":  # the points taken so far decide nothing: say so
        lines.append(t(lang, "Team {team} wins by 双关: both its players went out first, so "
                       "the points (A {a}, B {b}) do not count.", team=result.winner, a=a,
                       b=b))  # fmt: skip
    else:
        how = {"points": t(lang, "points"), "decided": t(lang, "decided early")}[result.ended_by]
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
    if result.ended_by == "points":
        lines += _counted_lines(lang, result, names)
    lines += player_lines(lang, names, result.stakes, result.bonus, t(lang, "墩"), totals,
                          running)  # fmt: skip
    return "\n".join(lines)


def _counted_lines(lang: str, result: SituanResult, names: Sequence[str]) -> list[str]:
    """Where the points went beyond each player's own once three were out: the team totals
    above hold them, and without these lines they look miscounted."""
    first, last = result.finish[0], result.finish[3]
    lines = []
    taken, bottom = result.captured[last], result.bottom_points
    said = {"first": names[first], "last": names[last], "taken": taken, "bottom": bottom}
    if taken and bottom:
        lines.append(t(lang, "{first} went out first (上游): {first} also takes {last}'s {taken} "
                       "captured points and the bottom's {bottom}.", **said))  # fmt: skip
    elif taken:
        lines.append(t(lang, "{first} went out first (上游): {first} also takes {last}'s {taken} "
                       "captured points.", **said))  # fmt: skip
    elif bottom:
        lines.append(t(lang, "{first} went out first (上游): {first} also takes the bottom's "
                       "{bottom} points.", **said))  # fmt: skip
    if result.remaining:
        team = "B" if last % 2 == 0 else "A"
        lines.append(t(lang, "{name} still held {points} points: they go to team {team}.",
                       name=names[last], points=result.remaining, team=team))  # fmt: skip
    return lines
