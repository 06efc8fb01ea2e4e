"""Texts for people, from engine views and results, in the reader's language.

Group renders receive only public views (``view(None)``); a seat's own cards are rendered
only into private messages.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from bot.i18n import N_, t
from engine.cards import Card, parse_card
from engine.erqiwang import ErqiwangView
from engine.situan import RANKS, SituanView

SUIT_NAMES = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}


def card_text(lang: str, c: Card) -> str:
    if c.rank == "LJ":
        return t(lang, "LJ")
    if c.rank == "BJ":
        return t(lang, "BJ")
    return c.symbol()


def cards_text(lang: str, cards: Sequence[Card]) -> str:
    return " ".join(card_text(lang, c) for c in cards)


def rank_text(lang: str, rank: str) -> str:
    return t(lang, rank) if rank in ("LJ", "BJ") else rank


def situan_holding(lang: str, cards: Sequence[Card]) -> str:
    """四团 hands by rank with counts, the way players hold them: ``3×2 7×5 K LJ×3``."""
    counts = Counter(c.rank for c in cards)
    parts = []
    for rank in RANKS:
        if counts[rank]:
            name = rank_text(lang, rank)
            parts.append(name if counts[rank] == 1 else f"{name}×{counts[rank]}")
    return " ".join(parts) or "—"


def money(value: Fraction | str) -> str:
    amount = Fraction(value)
    text = str(amount) if amount.denominator != 1 else str(amount.numerator)
    return f"+{text}" if amount > 0 else text


def situan_combo(lang: str, combo: Any) -> str:
    size = combo.size
    rank = rank_text(lang, RANKS[combo.rank])
    if combo.kind == "kings":
        return t(lang, "four kings")
    if combo.kind == "single":
        return t(lang, "single {rank}", rank=rank)
    if combo.kind == "pair":
        return t(lang, "pair of {rank}", rank=rank)
    return t(lang, "{count}×{rank}", count=size, rank=rank)


def situan_table(lang: str, view: SituanView, names: Sequence[str], number: int,
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
        shown = t(lang, "pass") if combo is None else situan_combo(lang, combo)
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
                cards=situan_holding(lang, view.revealed_hand),
            )
        )
    return "\n".join(lines)


def erqiwang_holding(lang: str, view: ErqiwangView) -> str:
    return cards_text(lang, view.hand) or "—"


def erqiwang_table(lang: str, view: ErqiwangView, names: Sequence[str], number: int,
                   seconds_left: int | None) -> str:  # fmt: skip
    lines = [t(lang, "二七王 · hand {number}", number=number)]
    if view.declarer is not None:
        trump = (
            t(lang, "no trump")
            if view.trump_named and view.trump is None
            else (SUIT_NAMES.get(view.trump or "", "?"))
        )
        lines.append(
            t(
                lang,
                "Declarer {name}, bid {bid}, trump {trump}",
                name=names[view.declarer],
                bid=view.bid,
                trump=trump if view.trump_named else "—",
            )
        )
    elif view.bids:
        bids = [f"{names[s]} {p if p is not None else t(lang, 'pass')}" for s, p in view.bids]
        lines.append(t(lang, "Bids: {bids}", bids=" · ".join(bids)))
    if view.result is None:
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


def settlement_text(lang: str, game: str, result: dict[str, Any], names: Sequence[str],
                    totals: Sequence[Fraction], running: Sequence[Fraction]) -> str:  # fmt: skip
    """The hand's settlement: a line per player with the hand, the bonus and the total."""
    lines = [t(lang, "Hand over.")]
    if game == "situan":
        winner = result.get("winner")
        points = result["team_points"]
        if winner is None:
            lines.append(
                t(
                    lang,
                    "No team reached 200 (A {a}, B {b}): carried over.",
                    a=points["A"],
                    b=points["B"],
                )
            )
        else:
            how = {"double": t(lang, "双关"), "points": t(lang, "points"),
                   "decided": t(lang, "decided early")}[result["ended_by"]]  # fmt: skip
            lines.append(
                t(
                    lang,
                    "Team {team} wins ({how}): A {a}, B {b}.",
                    team=winner,
                    how=how,
                    a=points["A"],
                    b=points["B"],
                )
            )
        bonus_name = t(lang, "墩")
    else:
        who = names[result["declarer"]]
        key = (
            N_("{name} made the bid ({points} against {bid}).")
            if result["declarer_won"]
            else (N_("{name} lost the bid ({points} against {bid})."))
        )
        lines.append(t(lang, key, name=who, points=result["defender_points"], bid=result["bid"]))
        if result["surrendered"]:
            lines.append(t(lang, "{name} surrendered.", name=who))
        bonus_name = t(lang, "冲关")
    for seat in range(4):
        lines.append(
            t(
                lang,
                "{name}: hand {hand}, {bonus_name} {bonus}, total {total} (match {match})",
                name=names[seat],
                hand=money(result["stakes"][seat]),
                bonus_name=bonus_name,
                bonus=money(result["bonus"][seat]),
                total=money(totals[seat]),
                match=money(running[seat]),
            )
        )
    return "\n".join(lines)


def ledger_text(lang: str, ledger: dict[str, Fraction], names: dict[str, str]) -> str:
    if not ledger:
        return t(lang, "No hand has been settled yet.")
    lines = [t(lang, "Match score:")]
    for user, amount in sorted(ledger.items(), key=lambda item: item[1], reverse=True):
        lines.append(f"{names.get(user, user)} {money(amount)}")
    return "\n".join(lines)


def refusal_text(lang: str, code: str, facts: dict[str, Any], fallback: str) -> str:
    """A rule's refusal as a sentence naming what was wrong, where the facts allow."""
    play, last = facts.get("play"), facts.get("last")
    if code == "cannot_beat" and play is not None and last is not None:
        return t(
            lang,
            "{play} does not beat {last}.",
            play=situan_combo(lang, play),
            last=situan_combo(lang, last),
        )
    cards = facts.get("cards")
    if code == "not_in_hand" and cards:
        shown = cards_text(lang, [parse_card(c) for c in cards])
        return t(lang, "You do not hold {cards}.", cards=shown)
    return t(lang, fallback)
