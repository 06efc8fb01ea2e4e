"""The renderer's inputs (`bot.pictures`) from what the host knows: cards, names, totals.

Shared by the game fronts, which decide what goes in (四团 by rank, 二七王 in the order held
with a break between suits); text arrives here already in the reader's language.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import partial

from bot.i18n import t
from bot.pictures import (
    CardFace,
    HandPicture,
    Layout,
    SettlementPicture,
    SettlementRow,
    render_hand,
    render_settlement,
)
from engine.cards import Card


def face(card: Card, by_rank: bool = False) -> CardFace:
    """A card as printed: 四团 gives the rank only (suits never matter there)."""
    if by_rank or not card.suit:
        return CardFace(card.rank)
    return CardFace(card.rank, card.suit)


def hand_picture(
    layout: Layout,
    player: str,
    cards: Sequence[CardFace],
    details: Sequence[str],
    breaks: Sequence[int] = (),
) -> HandPicture:
    return HandPicture(layout, player, tuple(cards), tuple(details), tuple(breaks))


def settlement_picture(
    lang: str,
    title: str,
    names: Sequence[str],
    results: Sequence[str],
    totals: Sequence[Fraction],
    running: Sequence[Fraction],
    bonuses: Sequence[str],
    footer: str = "",
) -> SettlementPicture:
    rows = tuple(
        SettlementRow(
            names[seat],
            results[seat],
            totals[seat],
            running[seat],
            bonuses[seat],
            winner=totals[seat] > 0,
        )
        for seat in range(len(names))
    )
    headings = (t(lang, "Player"), t(lang, "Result"), t(lang, "This hand"), t(lang, "Match"))
    return SettlementPicture(title, rows, headings, footer)


def drawn_hand(picture: HandPicture) -> Callable[[], bytes]:
    """The PNG, drawn when the adapter asks for it (cached by content)."""
    return partial(render_hand, picture)


def drawn_settlement(picture: SettlementPicture) -> Callable[[], bytes]:
    return partial(render_settlement, picture)
