"""Texts both games share: cards, ranks, amounts and the match ledger, in the reader's
language. Group renders receive only public views; a seat's own cards are rendered only into
private messages."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Protocol, TypeVar

from bot.i18n import t
from bot.views.amounts import signed_amount
from engine.cards import Card


def seat_number(index: int) -> int:
    """The seat as people read and type it, 1 to 4 (the engine and records count from 0)."""
    return index + 1


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


EARLIER_CHARACTERS = 1000
"""How long the lines of tricks or rounds closed since the last table state the group saw
may be together, above the last one. Every one of them is listed (people who play fast, or
AI players alone, can close several within one of the group's slots, and the group should
see each whole); only past this length are the oldest left out, so that the table message
stays inside Discord's 2,000 characters with the rest of the table (about 20 tricks of short
names, 3 of the longest)."""


class Closing(Protocol):
    """An event that closes a trick or round, with its ``plays``."""

    @property
    def plays(self) -> Sequence[object]: ...


ClosingT = TypeVar("ClosingT", bound=Closing)


def unshown_closings(earlier: Sequence[ClosingT], last: Sequence[object]) -> list[ClosingT]:
    """Of the closing events no table state sent has shown (`RoundWon`, `TrickWon`: each
    with its ``plays``), those to list above ``last``, the plays shown as the last trick or
    round: that one is not repeated (`newest_within` then cuts their lines to length)."""
    missed = [e for e in earlier if e.plays]
    if missed and tuple(missed[-1].plays) == tuple(last):
        missed.pop()  # the newest is the one shown as the last (one before it may read alike)
    return missed


def newest_within(lines: Sequence[str], characters: int = EARLIER_CHARACTERS) -> list[str]:
    """The newest of ``lines`` (oldest first) that fit in ``characters`` together."""
    kept: list[str] = []
    for line in reversed(lines):
        characters -= len(line) + 1
        if characters < 0:
            break
        kept.append(line)
    return kept[::-1]


def money(value: Fraction | str) -> str:
    return signed_amount(value)


def player_lines(
    lang: str,
    names: Sequence[str],
    stakes: Sequence[Fraction],
    bonus: Sequence[Fraction],
    bonus_name: str,
    totals: Sequence[Fraction],
    running: Sequence[Fraction],
) -> list[str]:
    """A settlement's line per player: the hand, the bonus (墩 or 冲关), the total, the match."""
    return [
        t(
            lang,
            "{name}: hand {hand}, {bonus_name} {bonus}, total {total} (match {match})",
            name=names[seat],
            hand=money(stakes[seat]),
            bonus_name=bonus_name,
            bonus=money(bonus[seat]),
            total=money(totals[seat]),
            match=money(running[seat]),
        )
        for seat in range(4)
    ]


def ledger_text(lang: str, ledger: dict[str, Fraction], names: dict[str, str]) -> str:
    if not ledger:
        return t(lang, "No hand has been settled yet.")
    lines = [t(lang, "Match score:")]
    for user, amount in sorted(ledger.items(), key=lambda item: item[1], reverse=True):
        lines.append(f"{names.get(user, user)} {money(amount)}")
    return "\n".join(lines)
