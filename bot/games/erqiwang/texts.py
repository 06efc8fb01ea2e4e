"""二七王 texts for people: the table message and the settlement."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from bot.i18n import N_, t, tn
from bot.shared_texts import SUIT_NAMES, cards_text, player_lines, unshown_closings
from engine.cards import Card
from engine.erqiwang import ErqiwangResult, ErqiwangView
from engine.erqiwang.events import ErqiwangEvent, TrickWon
from engine.erqiwang.phases import Phase


def trump_text(lang: str, view: ErqiwangView) -> str:
    if not view.trump_named:
        return "—"
    if view.trump is None:
        return t(lang, "no trump")
    return SUIT_NAMES.get(view.trump, "?")


def _plays(lang: str, plays: Sequence[tuple[int, Sequence[Card]]], names: Sequence[str]) -> str:
    return " · ".join(
        t(lang, "{name}: {play}", name=names[s], play=cards_text(lang, cards)) for s, cards in plays
    )


def _trick_winner(view: ErqiwangView, finished: bool) -> int | None:
    """Who won the trick shown as the last one: the leader of the trick now on (or the seat
    to lead it), or at the end of the hand the result's last-trick winner."""
    if finished:
        return view.result.last_trick_winner if view.result is not None else None
    if view.trick:
        return view.trick[0][0]
    return view.to_act


def _trick_line(lang: str, key: str, plays: Sequence[tuple[int, Sequence[Card]]], winner: int,
                names: Sequence[str]) -> str:  # fmt: skip
    points = sum(c.points for _, cards in plays for c in cards)
    return t(lang, key, plays=_plays(lang, plays, names), name=names[winner], points=points)


def table_text(lang: str, view: ErqiwangView, names: Sequence[str], number: int,
               seconds_left: int | None,
               earlier: Sequence[ErqiwangEvent] = ()) -> str:  # fmt: skip
    lines = [t(lang, "二七王 · hand {number}", number=number)]
    if view.declarer is not None:
        lines.append(
            t(
                lang,
                "Declarer {name}, bid {bid}, trump {trump}",
                name=names[view.declarer],
                bid=view.bid,
                trump=trump_text(lang, view),
            )
        )
    elif view.bids:
        bids = [f"{names[s]} {p if p is not None else t(lang, 'pass')}" for s, p in view.bids]
        lines.append(t(lang, "Bids: {bids}", bids=" · ".join(bids)))
    if view.result is None and view.to_act is not None:
        line = t(lang, "Turn: {name}", name=names[view.to_act])
        if seconds_left is not None:
            line = t(lang, "Turn: {name} ({seconds} s left)", name=names[view.to_act],
                     seconds=seconds_left)  # fmt: skip
        lines.append(line)
    finished = view.result is not None and bool(view.trick)
    last = view.trick if finished else view.last_trick
    winner = _trick_winner(view, finished)
    # Tricks closed (`TrickWon`) that no table state sent has shown, but the last.
    tricks = [e for e in earlier if isinstance(e, TrickWon)]
    for trick in unshown_closings(tricks, last):
        lines.append(_trick_line(lang, N_("Earlier trick: {plays} → {name} wins {points}"),
                                 trick.plays, trick.seat, names))  # fmt: skip
    if last and winner is not None:
        lines.append(_trick_line(lang, N_("Last trick: {plays} → {name} wins {points}"), last,
                                 winner, names))  # fmt: skip
    if view.trick and not finished:
        lines.append(t(lang, "This trick: {plays}", plays=_plays(lang, view.trick, names)))
    if view.declarer is not None:
        lines.append(t(lang, "Defenders' points: {points}", points=view.defender_points))
    voids = [names[s] for s in range(4) if view.void[s]]
    if voids and view.phase == Phase.PLAY:
        lines.append(t(lang, "No trump left: {names}", names=", ".join(voids)))
    if view.trump_counts and view.phase == Phase.PLAY:
        counts = [
            tn(lang, "{name}: {count} trump", "{name}: {count} trumps", n, name=names[s])
            + (" " + t(lang, "(with a pair)") if pair else "")
            for s, n, pair in view.trump_counts
        ]
        lines.append(t(lang, "Trumps left: {counts}", counts=" · ".join(counts)))
    autos = [names[s] for s in range(4) if view.auto[s]]
    if autos:
        lines.append(t(lang, "On auto-play: {names}", names=", ".join(autos)))
    return "\n".join(lines)


def settlement_text(lang: str, result: ErqiwangResult, names: Sequence[str],
                    totals: Sequence[Fraction], running: Sequence[Fraction]) -> str:  # fmt: skip
    """The hand's settlement: a line per player with the hand, the 冲关 bonus and the total."""
    lines = [t(lang, "Hand over.")]
    assert result.declarer is not None
    who = names[result.declarer]
    key = (
        N_("{name} made the bid ({points} against {bid}).")
        if result.declarer_won
        else N_("{name} lost the bid ({points} against {bid}).")
    )
    lines.append(t(lang, key, name=who, points=result.defender_points, bid=result.bid))
    caught = result.last_trick_winner is not None and result.last_trick_winner != result.declarer
    if caught and result.bottom_points and result.bottom_multiplier:  # where the rest came from
        lines.append(t(lang, "The defenders won the last trick: the bottom's {points} points "
                             "×{times} went to them (抓底).",
                       points=result.bottom_points, times=result.bottom_multiplier))  # fmt: skip
    if result.surrendered:
        lines.append(t(lang, "{name} surrendered.", name=who))
    if result.bonus_points:
        before = result.defender_points - result.bonus_points
        lines.append(t(lang, "冲关 {moved}: defenders {before} → {after}",
                       moved=f"{result.bonus_points:+d}", before=before,
                       after=result.defender_points))  # fmt: skip
    lines += player_lines(lang, names, result.stakes, result.bonus, t(lang, "冲关"), totals,
                          running)  # fmt: skip
    return "\n".join(lines)
