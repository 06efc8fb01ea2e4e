"""二七王's group posts: the auction's end, the trump named, the burying, 冲关 declared, a
failed throw.

Each says who did it by name and in the game's words (叫分, 定主, 埋底), so that a player who
only reads the group — the table message being edited in place — still follows the hand."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.erqiwang.texts import auction_text, suit_text
from bot.i18n import t, tn
from bot.views.shared_texts import cards_text
from engine.erqiwang.events import (
    BonusDeclared,
    Buried,
    DeclarerChosen,
    ErqiwangEvent,
    ThrowFailed,
    TrumpNamed,
)


def narrate(lang: str, event: ErqiwangEvent, names: Sequence[str]) -> str | None:
    if isinstance(event, DeclarerChosen):
        return auction_end(lang, event, names)
    if isinstance(event, TrumpNamed):
        who = names[event.seat] if event.seat is not None else t(lang, "Declarer")
        return t(
            lang, "Declarer {name} names trump: {suit}.", name=who, suit=suit_text(lang, event.suit)
        )
    if isinstance(event, Buried):
        # Only how many: the cards stay secret until the hand is over.
        return tn(
            lang,
            "Declarer {name} has buried {count} card.",
            "Declarer {name} has buried {count} cards.",
            event.count,
            name=names[event.seat],
        )
    if isinstance(event, BonusDeclared):
        return t(
            lang,
            "{name} declares {bonus} ({value}): {cards}",
            name=names[event.seat],
            bonus=t(lang, event.name),
            value=event.value,
            cards=cards_text(lang, event.cards),
        )
    if isinstance(event, ThrowFailed):
        # Everyone learns at once what the thrower learns: which part could be beaten.
        return t(
            lang,
            "{name} tried to throw {tried}, but it can be beaten: {name} leads {played} alone.",
            name=names[event.seat],
            tried=cards_text(lang, event.tried),
            played=cards_text(lang, event.played),
        )
    # BottomShown is told with DeclarerChosen, in the same post; bids and passes the table
    # message shows as they come.
    return None


def auction_end(lang: str, event: DeclarerChosen, names: Sequence[str]) -> str:
    """One post for the auction's end: every bid in order, then who declares at what bid and
    the bottom taken (亮底牌: shown to everyone)."""
    lines = []
    if event.bids:
        lines.append(t(lang, "Bidding over: {bids}.", bids=auction_text(lang, event.bids, names)))
    lines.append(
        t(
            lang,
            "{name} is declarer at {bid} and takes the bottom: {cards}",
            name=names[event.seat],
            bid=event.bid,
            cards=cards_text(lang, event.bottom),
        )
    )
    return "\n".join(lines)
