"""二七王 texts for people: the table message and the settlement."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from bot.i18n import N_, t
from bot.render import SUIT_NAMES, cards_text, money
from engine.erqiwang import ErqiwangResult, ErqiwangView


def trump_text(lang: str, view: ErqiwangView) -> str:
    if not view.trump_named:
        return "—"
    if view.trump is None:
        return t(lang, "no trump")
    return SUIT_NAMES.get(view.trump, "?")


def table_text(lang: str, view: ErqiwangView, names: Sequence[str], number: int,
               seconds_left: int | None) -> str:  # fmt: skip
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
            line += " " + t(lang, "({seconds} s left)", seconds=seconds_left)
        lines.append(line)
    if view.trick:
        plays = [f"{names[s]}: {cards_text(lang, cards)}" for s, cards in view.trick]
        lines.append(t(lang, "This trick: {plays}", plays=" · ".join(plays)))
    if view.declarer is not None:
        lines.append(t(lang, "Defenders' points: {points}", points=view.defender_points))
    voids = [names[s] for s in range(4) if view.void[s]]
    if voids and view.phase == "play":
        lines.append(t(lang, "No trump left: {names}", names=", ".join(voids)))
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
    if result.surrendered:
        lines.append(t(lang, "{name} surrendered.", name=who))
    for seat in range(4):
        lines.append(
            t(
                lang,
                "{name}: hand {hand}, {bonus_name} {bonus}, total {total} (match {match})",
                name=names[seat],
                hand=money(result.stakes[seat]),
                bonus_name=t(lang, "冲关"),
                bonus=money(result.bonus[seat]),
                total=money(totals[seat]),
                match=money(running[seat]),
            )
        )
    return "\n".join(lines)
