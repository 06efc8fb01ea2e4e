"""二七王 texts for people: the table message and the words it shares with the posts."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import N_, t, tn
from bot.views.shared_texts import SUIT_NAMES, cards_text, newest_within, unshown_closings
from engine.cards import Card
from engine.erqiwang import ErqiwangView
from engine.erqiwang.events import ErqiwangEvent, TrickWon
from engine.erqiwang.phases import Phase


def trump_text(lang: str, view: ErqiwangView) -> str:
    if not view.trump_named:
        return "—"
    return suit_text(lang, view.trump)


def suit_text(lang: str, suit: str | None) -> str:
    """A trump suit as named: its symbol, or 全常主 for none."""
    if suit is None or suit == "none":
        return t(lang, "no trump")
    return SUIT_NAMES.get(suit, "?")


def bid_text(lang: str, points: int | None) -> str:
    """One bid: its points, or 不叫 — a pass in the auction is not 不要, a pass in play."""
    return str(points) if points is not None else t(lang, "no bid")


def auction_text(lang: str, bids: Sequence[tuple[int, int | None]], names: Sequence[str]) -> str:
    """The auction in order: ``Ann 120 · AI 1 不叫 · …``."""
    return " · ".join(f"{names[seat]} {bid_text(lang, points)}" for seat, points in bids)


def _turn_line(
    lang: str, view: ErqiwangView, names: Sequence[str], seconds_left: int | None
) -> str:
    """Whose turn, said as what they are doing while the declarer alone acts (naming trump,
    burying), so that nobody waits for a turn that is not theirs."""
    assert view.to_act is not None
    name = names[view.to_act]
    if view.phase == Phase.TRUMP:
        keys = N_("{name} is naming trump"), N_("{name} is naming trump ({seconds} s left)")
    elif view.phase == Phase.BURY:
        keys = (
            N_("{name} is burying {count} cards"),
            N_("{name} is burying {count} cards ({seconds} s left)"),
        )
    else:
        keys = N_("Turn: {name}"), N_("Turn: {name} ({seconds} s left)")
    count = len(view.bottom_shown)
    if seconds_left is None:
        return t(lang, keys[0], name=name, count=count)
    return t(lang, keys[1], name=name, count=count, seconds=seconds_left)


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


def trick_line(
    lang: str,
    key: str,
    plays: Sequence[tuple[int, Sequence[Card]]],
    winner: int,
    names: Sequence[str],
) -> str:
    points = sum(c.points for _, cards in plays for c in cards)
    return t(lang, key, plays=_plays(lang, plays, names), name=names[winner], points=points)


def contract_lines(lang: str, view: ErqiwangView, names: Sequence[str]) -> list[str]:
    """The declarer, the bid and trump once known; the auction so far before."""
    if view.declarer is not None and view.trump_named:
        return [
            t(
                lang,
                "Declarer {name}, bid {bid}, trump {trump}",
                name=names[view.declarer],
                bid=view.bid,
                trump=trump_text(lang, view),
            )
        ]
    if view.declarer is not None:  # the auction is over: no bids, no trump yet
        return [t(lang, "Declarer {name}, bid {bid}", name=names[view.declarer], bid=view.bid)]
    if view.bids:
        return [t(lang, "Bids: {bids}", bids=auction_text(lang, view.bids, names))]
    return []


def standing_lines(lang: str, view: ErqiwangView, names: Sequence[str]) -> list[str]:
    """The defenders' points, who is out of trumps, and the trumps announced left."""
    lines = []
    if view.phase == Phase.PLAY or (view.result is not None and view.declarer is not None):
        lines.append(t(lang, "Defenders' points: {points}", points=view.defender_points))
    voids = [names[s] for s in range(4) if view.void[s]]
    if voids and view.phase == Phase.PLAY:
        lines.append(t(lang, "No trump left: {names}", names=t(lang, ", ").join(voids)))
    if view.trump_counts and view.phase == Phase.PLAY:
        counts = [
            tn(lang, "{name}: {count} trump", "{name}: {count} trumps", n, name=names[s])
            + (" " + t(lang, "(with a pair)") if pair else "")
            for s, n, pair in view.trump_counts
        ]
        lines.append(t(lang, "Trumps left: {counts}", counts=" · ".join(counts)))
    return lines


def last_trick(view: ErqiwangView) -> tuple[Sequence[tuple[int, Sequence[Card]]], int | None]:
    """The trick shown as the last one (at the end of the hand, the one it ended with) and
    who won it."""
    finished = view.result is not None and bool(view.trick)
    return (view.trick if finished else view.last_trick), _trick_winner(view, finished)


def last_trick_line(lang: str, view: ErqiwangView, names: Sequence[str]) -> str:
    last, winner = last_trick(view)
    if not last or winner is None:
        return ""
    return trick_line(lang, N_("Last trick: {plays} → {name} wins {points}"), last, winner, names)


def table_text(
    lang: str,
    view: ErqiwangView,
    names: Sequence[str],
    number: int,
    seconds_left: int | None,
    earlier: Sequence[ErqiwangEvent] = (),
) -> str:
    lines = [t(lang, "二七王 · hand {number}", number=number), *contract_lines(lang, view, names)]
    if view.result is None and view.to_act is not None:
        lines.append(_turn_line(lang, view, names, seconds_left))
    finished = view.result is not None and bool(view.trick)
    last, winner = last_trick(view)
    # Tricks closed (`TrickWon`) that no table state sent has shown, but the last.
    tricks = [e for e in earlier if isinstance(e, TrickWon)]
    key = N_("Earlier trick: {plays} → {name} wins {points}")
    missed = [trick_line(lang, key, e.plays, e.seat, names) for e in unshown_closings(tricks, last)]
    lines += newest_within(missed)
    if last and winner is not None:
        key = N_("Last trick: {plays} → {name} wins {points}")
        lines.append(trick_line(lang, key, last, winner, names))
    if view.trick and not finished:
        lines.append(t(lang, "This trick: {plays}", plays=_plays(lang, view.trick, names)))
    lines += standing_lines(lang, view, names)
    autos = [names[s] for s in range(4) if view.auto[s]]
    if autos:
        lines.append(t(lang, "On auto-play: {names}", names=t(lang, ", ").join(autos)))
    return "\n".join(lines)
