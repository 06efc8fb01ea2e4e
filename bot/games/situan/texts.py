"""四团 texts for people: combinations, holdings, the table message and the settlement."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from bot.games.situan.notation import count_text
from bot.i18n import N_, t
from bot.views.shared_texts import (
    cards_text,
    newest_within,
    rank_text,
    unshown_closings,
)
from engine.cards import Card
from engine.situan import RANKS, Combo, SituanView
from engine.situan.events import RoundWon, ShowAnswered, SituanEvent
from engine.situan.phases import Phase

PLACES = {1: N_("上游"), 2: N_("二游"), 3: N_("三游")}
LAST_PLACE = N_("下游")
"""The finishing places, by order out."""


def play_text(lang: str, combo: Combo) -> str:
    """A play in the one notation the hand uses: ``K``, ``6×3``, ``10×7``, ``小王×3 大王``."""
    return ranks_text(lang, [RANKS[r] for r in combo.ranks])


def combo_text(lang: str, combo: Combo) -> str:
    """A play named in a sentence: a single and a pair in words (a bare ``K`` reads as a
    letter), four kings by name, everything else in the notation (``6×3``, ``7×5``)."""
    rank = rank_text(lang, RANKS[combo.rank])
    if combo.kind == "kings":
        return t(lang, "four kings")
    if combo.kind == "single":
        return t(lang, "single {rank}", rank=rank)
    if combo.kind == "pair":
        return t(lang, "pair of {rank}", rank=rank)
    return play_text(lang, combo)


def holding_text(lang: str, cards: Sequence[Card]) -> str:
    """四团 hands by rank with counts, the way players hold them: ``3×2 7×5 K LJ×3``."""
    return ranks_text(lang, [c.rank for c in cards])


def ranks_text(lang: str, ranks: Sequence[str]) -> str:
    """Ranks by count, as `holding_text` writes a hand: ``7×4``, ``小王×2``."""
    counts = Counter(ranks)
    parts = [count_text(rank_text(lang, rank), counts[rank]) for rank in RANKS if counts[rank]]
    return " ".join(parts) or "—"


def names_text(lang: str, names: Sequence[str]) -> str:
    """Names in a list: ``AI 1, AI 2`` in English, ``电脑 1、电脑 2`` in Chinese."""
    shown = names[0]
    for name in names[1:]:
        shown = t(lang, "{names}, {name}", names=shown, name=name)
    return shown


ROUND_ENTRIES_SHOWN = 6
"""A bomb fight's round keeps only its newest plays on the table: the last one is what must
be beaten, and the round's points are shown beside it."""


def round_entries(
    lang: str, plays: Sequence[tuple[int, Combo | None]], names: Sequence[str]
) -> list[str]:
    """A round's plays, each pass run folded into one entry: ``AI 2, AI 3: pass``."""
    entries: list[str] = []
    passers: list[str] = []
    for seat, combo in plays:
        if combo is None:
            passers.append(names[seat])
            continue
        if passers:
            entries.append(
                t(lang, "{name}: {play}", name=names_text(lang, passers), play=t(lang, "pass"))
            )
            passers = []
        entries.append(t(lang, "{name}: {play}", name=names[seat], play=play_text(lang, combo)))
    if passers:
        entries.append(
            t(lang, "{name}: {play}", name=names_text(lang, passers), play=t(lang, "pass"))
        )
    return entries


def round_now_text(
    lang: str, plays: Sequence[tuple[int, Combo | None]], names: Sequence[str]
) -> str:
    """The open round's newest plays, ``… `` in front when older ones are left out."""
    entries = round_entries(lang, plays, names)
    shown = " · ".join(entries[-ROUND_ENTRIES_SHOWN:])
    return "… " + shown if len(entries) > ROUND_ENTRIES_SHOWN else shown


LAST_ROUND = N_("Last round: {name} took it with {play}, {points} points")


def last_round_line(
    lang: str,
    plays: Sequence[tuple[int, Combo | None]],
    names: Sequence[str],
    key: str = LAST_ROUND,
) -> str:
    """The round just finished in one line: who took it, with what, and its points (the
    plays before are history: repeating them made a bomb fight fill a phone's screen)."""
    played = [(seat, combo) for seat, combo in plays if combo is not None]
    if not played:
        return ""
    winner, last = played[-1]
    points = sum(combo.points for _, combo in played)
    return t(lang, key, name=names[winner], play=combo_text(lang, last), points=points)


def earlier_round_lines(
    lang: str, earlier: Sequence[SituanEvent], view: SituanView, names: Sequence[str]
) -> list[str]:
    """The rounds closed (`RoundWon`) that no table state sent has shown, but the last."""
    key = N_("Earlier round: {name} took it with {play}, {points} points")
    rounds = [e for e in earlier if isinstance(e, RoundWon)]
    missed = unshown_closings(rounds, view.last_round)
    return newest_within(
        [line for event in missed if (line := last_round_line(lang, event.plays, names, key))]
    )


def opening_lines(lang: str, view: SituanView, names: Sequence[str]) -> list[str]:
    """Said with the deal: the flipped card that chose the first leader, and 亮墩 — every
    墩 dealt, shown to the table when play begins."""
    lines = []
    if view.flipped is not None:
        lines.append(
            t(
                lang,
                "Flipped card: {card} — {name} leads.",
                card=cards_text(lang, [view.flipped]),
                name=names[view.first],
            )
        )
    shown = [
        t(lang, "{name} ({dun})", name=names[s], dun=dun_text(lang, d))
        for s in range(4)
        for d in view.duns[s]
    ]
    if shown and view.rules.dun_counted == "dealt":
        lines.append(t(lang, "墩 dealt: {duns}", duns=" · ".join(shown)))
    return lines


def dun_text(lang: str, dun: int | str) -> str:
    if dun == "KINGS4":
        return t(lang, "four kings")
    if dun == "LJ3":
        return t(lang, "three small jokers")
    return t(lang, "{count} of one rank", count=dun)


def table_text(
    lang: str,
    view: SituanView,
    names: Sequence[str],
    number: int,
    seconds_left: int | None,
    earlier: Sequence[SituanEvent] = (),
) -> str:
    lines = [t(lang, "四团 · hand {number}", number=number)]
    if view.phase == Phase.SHOW_CONSENT:
        by = view.show_by
        assert by is not None
        lines.append(
            t(
                lang,
                "{name} asks {partner} for a 亮牌: waiting for {partner}'s answer.",
                name=names[by],
                partner=names[(by + 2) & 3],
            )
        )
    elif view.phase == Phase.SHOW_PICK:
        assert view.show_by is not None
        picker = view.show_by
        if view.rules.show_consent == "partner":
            picker = (picker + 2) & 3
        lines.append(t(lang, "{name} is choosing which hand to reveal.", name=names[picker]))
    elif view.result is None:
        line = t(lang, "Turn: {name}", name=names[view.turn])
        if seconds_left is not None:
            line = t(
                lang, "Turn: {name} ({seconds} s left)", name=names[view.turn], seconds=seconds_left
            )
        lines.append(line)
    lines += earlier_round_lines(lang, earlier, view, names)
    if view.last_round:
        lines.append(last_round_line(lang, view.last_round, names))
    ended_with_it = view.result is not None and tuple(view.round_plays) == tuple(view.last_round)
    if view.round_plays and not ended_with_it:  # a round the hand ended is shown just above
        lines.append(
            t(lang, "This round: {plays}", plays=round_now_text(lang, view.round_plays, names))
        )
    counts = []
    word = t(lang, "(auto)")
    on_auto = word if word.startswith("（") else " " + word  # no space before a full-width （
    for seat in range(4):
        shown = count_shown(lang, view, seat)
        mark = on_auto if view.auto[seat] else ""
        counts.append(f"{names[seat]} {shown}{mark}")
    lines.append(t(lang, "Cards: {counts}", counts=" · ".join(counts)))
    lines += points_lines(lang, view, names)
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


def show_answer_text(lang: str, event: ShowAnswered, names: Sequence[str]) -> str:
    """The partner's answer to a 亮牌 asked of it, for the group."""
    said = {"name": names[event.by], "partner": names[event.partner]}
    if event.accepted:
        return t(
            lang,
            "{partner} agrees to {name}'s 亮牌: they see each other's hands, and "
            "{partner} chooses which is shown.",
            **said,
        )
    if event.timed_out:
        return t(
            lang,
            "{partner} did not answer {name}'s 亮牌 in time: no 亮牌, the hand goes on.",
            **said,
        )
    return t(lang, "{partner} refuses {name}'s 亮牌: the hand goes on.", **said)


def count_shown(lang: str, view: SituanView, seat: int) -> str:
    """A seat's card count as the table shows it: ``out``, the count, or, above
    ``announce_at`` (报牌), ``>11``."""
    count = view.counts[seat]
    if seat in view.finish:
        return t(lang, "out")
    if count is None:
        return f">{view.announce_at}"
    return str(count)


def points_lines(lang: str, view: SituanView, names: Sequence[str]) -> list[str]:
    """Each team's captured points, the points lying in the open round, and in a
    carried-over series what the earlier hands left and the total with this one."""
    team_a = view.captured[0] + view.captured[2]
    team_b = view.captured[1] + view.captured[3]
    line = t(
        lang,
        "Points: team A ({a_names}) {a} · team B ({b_names}) {b}",
        a_names=names_text(lang, [names[0], names[2]]),
        a=team_a,
        b_names=names_text(lang, [names[1], names[3]]),
        b=team_b,
    )
    if view.round_plays and view.result is None:
        line += " · " + t(lang, "Points in this round: {points}", points=view.table_points)
    lines = [line]
    if view.carry is not None:
        before_a, before_b = view.carry
        lines.append(
            t(
                lang,
                "Series: earlier hands A {before_a} · B {before_b}; with this hand A {a} · B {b}",
                before_a=before_a,
                before_b=before_b,
                a=before_a + team_a,
                b=before_b + team_b,
            )
        )
    return lines
