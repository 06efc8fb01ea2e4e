"""二七王's settlement as people read it: the bid against the defenders' points, the bottom
(its cards, now public, and whether the defenders took it: 抓底, or why not: 副牌不扣底), the
冲关 with what they were worth, and the levels and bid multiplier behind each amount — so that
``+6`` says where it came from."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from bot.i18n import N_, t, tn
from bot.views.amounts import signed_amount
from bot.views.shared_texts import cards_text, money, player_lines
from engine.erqiwang import ErqiwangResult
from engine.erqiwang.deal import bottom_size
from engine.erqiwang.settlement import BONUS_POINTS_PER_VALUE, FIGURES, Reckoning

SWEEPS = {"小光": N_("小光"), "大光": N_("大光")}
"""The online scoring's sweeps, as message ids."""


def settlement_text(
    lang: str,
    result: ErqiwangResult,
    names: Sequence[str],
    totals: Sequence[Fraction],
    running: Sequence[Fraction],
) -> str:
    """The hand's settlement: how it went, then a line per player."""
    assert result.declarer is not None
    lines = [t(lang, "The hand is over."), outcome_line(lang, result, names)]
    if result.surrendered:
        lines.append(
            t(
                lang,
                "{name} surrendered: it counts as the defenders reaching the bid.",
                name=names[result.declarer],
            )
        )
    if result.bottom:
        cards = cards_text(lang, result.bottom)
        lines.append(
            t(
                lang,
                "The bottom: {cards} ({points} points).",
                cards=cards,
                points=result.bottom_points,
            )
        )
    if not result.surrendered:
        lines.append(bottom_line(lang, result, names))
    lines += bonus_lines(lang, result, names)
    lines.append(amount_line(lang, result, names))
    if any(result.bonus):  # 冲关 paid as units: a column of their own
        lines += player_lines(
            lang, names, result.stakes, result.bonus, t(lang, "冲关"), totals, running
        )
    else:
        lines += [
            t(
                lang,
                "{name} ({role}): {hand}, total {total} (match {match})",
                name=names[seat],
                role=role(lang, result, seat),
                hand=money(result.stakes[seat]),
                total=money(totals[seat]),
                match=money(running[seat]),
            )
            for seat in range(4)
        ]
    return "\n".join(lines)


def role(lang: str, result: ErqiwangResult, seat: int) -> str:
    return t(lang, "Declarer") if seat == result.declarer else t(lang, "Defender")


def outcome_line(lang: str, result: ErqiwangResult, names: Sequence[str]) -> str:
    """Who won, by the defenders' points against the bid. Where the bottom (抓底) or a 冲关
    (``bonus_scoring: points``) changed them, the line starts from the points the table
    showed, those taken in tricks, and says what made the total: "the defenders took 0"
    under a table that had just shown 40 read as a mistake (issue 49)."""
    assert result.declarer is not None
    caught = result.bottom_points * result.bottom_multiplier
    name, points, bid = names[result.declarer], result.defender_points, result.bid
    if result.surrendered or not (caught or result.bonus_points):
        key = (
            N_("{name} made the bid ({points} against {bid}).")
            if result.declarer_won
            else N_("{name} lost the bid ({points} against {bid}).")
        )
        return t(lang, key, name=name, points=points, bid=bid)
    changes = []
    if caught:
        changes.append(t(lang, "the bottom +{caught}", caught=caught))
    if result.bonus_points:
        changes.append(t(lang, "冲关 {moved}", moved=f"{result.bonus_points:+d}"))
    key = (
        N_(
            "{name} made the bid: the defenders' {tricks} in tricks, {changes}, make {points} "
            "against a bid of {bid}."
        )
        if result.declarer_won
        else N_(
            "{name} lost the bid: the defenders' {tricks} in tricks, {changes}, make "
            "{points} against a bid of {bid}."
        )
    )
    tricks = points - result.bonus_points - caught
    return t(
        lang,
        key,
        name=name,
        tricks=tricks,
        changes=t(lang, ", ").join(changes),
        points=points,
        bid=bid,
    )


def bottom_line(lang: str, result: ErqiwangResult, names: Sequence[str]) -> str:
    """Where the bottom went: to the defenders with its multiplier (抓底), or why not — the
    declarer won the last trick, or a defender won it with a side card (副牌不扣底)."""
    winner = result.last_trick_winner
    assert winner is not None
    if winner == result.declarer:
        return t(
            lang,
            "Declarer {name} won the last trick: the bottom stays with the declarer.",
            name=names[winner],
        )
    if not result.bottom_multiplier:  # only a side card makes a defender's last trick void
        return t(
            lang,
            "{name} won the last trick with a side card: the bottom does not count "
            "for the defenders (副牌不扣底).",
            name=names[winner],
        )
    caught = result.bottom_points * result.bottom_multiplier
    return t(
        lang,
        "{name} won the last trick with trumps: the bottom's {points} points "
        "×{times} = {caught} go to the defenders (抓底).",
        name=names[winner],
        points=result.bottom_points,
        times=result.bottom_multiplier,
        caught=caught,
    )


def bonus_lines(lang: str, result: ErqiwangResult, names: Sequence[str]) -> list[str]:
    """Each 冲关 that counts with what it was worth: card points to its side (``bonus_scoring:
    points``), or a payment from each of the other three (units)."""
    lines = []
    as_points = not any(result.bonus)
    for bonus in result.bonuses:
        name, title = names[bonus.seat], t(lang, bonus.name)
        if not as_points:
            lines.append(
                t(
                    lang,
                    "{name}'s {bonus} ({value}): each other player pays {value}.",
                    name=name,
                    bonus=title,
                    value=bonus.value,
                )
            )
        elif bonus.seat == result.declarer:
            lines.append(
                t(
                    lang,
                    "{name}'s {bonus} ({value}): {points} points off the defenders.",
                    name=name,
                    bonus=title,
                    value=bonus.value,
                    points=BONUS_POINTS_PER_VALUE * bonus.value,
                )
            )
        else:
            lines.append(
                t(
                    lang,
                    "{name}'s {bonus} ({value}): {points} points to the defenders.",
                    name=name,
                    bonus=title,
                    value=bonus.value,
                    points=BONUS_POINTS_PER_VALUE * bonus.value,
                )
            )
    if result.bonus_points:
        before = result.defender_points - result.bonus_points
        lines.append(
            t(
                lang,
                "冲关 {moved}: defenders {before} → {after}",
                moved=f"{result.bonus_points:+d}",
                before=before,
                after=result.defender_points,
            )
        )
    return lines


def terms_text(lang: str, reckoning: Reckoning) -> str:
    """What each defender's share is made of: levels × the bid multiplier (tiered), the bid
    multiplier × the sweep or the steps (online), the points ÷ 5 (proportional)."""
    if reckoning.scoring == "tiered":
        return tn(
            lang,
            "{count} level × bid multiplier {multiplier}",
            "{count} levels × bid multiplier {multiplier}",
            reckoning.levels,
            multiplier=reckoning.multiplier,
        )
    if reckoning.scoring == "online":
        text = t(lang, "bid multiplier {multiplier}", multiplier=reckoning.multiplier)
        if reckoning.levels > 1:
            text += f" × {reckoning.levels}"
        if reckoning.sweep:
            text += " " + t(lang, "({sweep})", sweep=t(lang, SWEEPS[reckoning.sweep]))
        return text
    return t(lang, "{points} points ÷ 5", points=reckoning.basis)


def amount_line(lang: str, result: ErqiwangResult, names: Sequence[str]) -> str:
    """The declarer's amount from its terms: ``Ann wins: 2 levels × bid multiplier 1 = 2
    from each defender, +6 in all.``"""
    assert result.declarer is not None
    amount = result.stakes[result.declarer]
    each = signed_amount(abs(amount) / 3).lstrip("+")
    name = names[result.declarer]
    if result.reckoning is None:  # a result made by hand, without its terms
        return t(lang, "Declarer {name}: {amount}.", name=name, amount=money(amount))
    key = (
        N_("{name} wins: {terms} = {each} from each defender, {amount} in all.")
        if amount > 0
        else N_("{name} loses: {terms} = {each} to each defender, {amount} in all.")
    )
    line = t(
        lang,
        key,
        name=name,
        terms=terms_text(lang, result.reckoning),
        each=each,
        amount=money(amount),
    )
    if result.reckoning.scoring == "tiered" and result.reckoning.levels > 1:
        # Where the levels come from, in the same message (a bare "4 levels" explains
        # nothing): one, and one more per full band between the points and the bid; the
        # band is the packs' (the bottom's size tells them: 8 cards two packs, 6 one).
        decks = next((d for d in FIGURES if bottom_size(d) == len(result.bottom)), 2)
        tier = FIGURES[decks].tier
        levels = t(
            lang,
            "Levels: 1, and 1 more for each full {tier} points between the "
            "defenders' {points} and the bid {bid}.",
            tier=tier,
            points=result.defender_points,
            bid=result.bid,
        )
        line += ("" if line.endswith("。") else " ") + levels  # no space after a 。
    return line


def footer(lang: str, result: ErqiwangResult, names: Sequence[str]) -> str:
    """The settlement picture's one line: the bid and the points, the terms, where the bottom
    went and why, the 冲关 — the reasons first, the bottom's cards last (a line too wide for
    the picture is cut at its end)."""
    parts = [
        t(lang, "bid {bid} · defenders {points}", bid=result.bid, points=result.defender_points)
    ]
    if result.reckoning is not None:
        parts.append(terms_text(lang, result.reckoning))
    if result.surrendered:
        parts.append(t(lang, "surrendered"))
    elif result.last_trick_winner == result.declarer:
        parts.append(t(lang, "bottom kept by the declarer"))
    elif result.bottom_multiplier:
        parts.append(
            t(
                lang,
                "抓底 {points}×{times}",
                points=result.bottom_points,
                times=result.bottom_multiplier,
            )
        )
    else:
        parts.append(t(lang, "副牌不扣底"))
    parts += [f"{t(lang, b.name)} {b.value}" for b in result.bonuses]
    if result.bottom:
        parts.append(t(lang, "bottom {cards}", cards=cards_text(lang, result.bottom)))
    return " · ".join(parts)
