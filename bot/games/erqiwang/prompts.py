"""What the seat the hand waits for may do now, in a line: in a chat with the commands to
type, on the web table's page (``page``) without them — its buttons do it (the bids, the
suits, Bury, Play; `bot.page.seat_view`)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import N_, t, tn
from bot.views.shared_texts import SUIT_NAMES, cards_text
from engine.actions import Action, Bid, NameTrump, Pass
from engine.erqiwang import ErqiwangView
from engine.erqiwang.phases import Phase

BIDS = {
    (True, False): N_("Bid from {highest} down to {lowest} in steps of {step} (/bid N), or /pass."),
    (False, False): N_(
        "Bid from {highest} down to {lowest} in steps of {step} (/bid N): the "
        "first bidder may not pass."
    ),
    (True, True): N_("Bid from {highest} down to {lowest} in steps of {step}, or pass."),
    (False, True): N_(
        "Bid from {highest} down to {lowest} in steps of {step}: the first bidder may not pass."
    ),
}
"""The auction's line, by (whether a pass is allowed, whether it is the page's)."""


def prompt(lang: str, view: ErqiwangView, legal: Sequence[Action], page: bool = False) -> str:
    if view.phase == Phase.BIDDING:
        bids = [a.points for a in legal if isinstance(a, Bid)]
        passing = any(isinstance(a, Pass) for a in legal)
        if not bids:
            return t(
                lang,
                N_("No bid is possible any more: only a pass.")
                if page
                else N_("No bid is possible any more: pass."),
            )
        step = bids[0] - bids[1] if len(bids) > 1 else view.rules.bid_step
        return t(lang, BIDS[passing, page], highest=bids[0], lowest=bids[-1], step=step)
    if view.phase == Phase.TRUMP:
        return trump_prompt(lang, [a.suit for a in legal if isinstance(a, NameTrump)], page)
    if view.phase == Phase.BURY:
        # Said alike where the cards are buttons and where they are not (the console).
        key = (
            N_("Choose {count} cards to bury.")
            if page
            else N_("Choose {count} cards to bury (/bury …).")
        )
        return t(lang, key, count=len(view.bottom_shown))
    if view.trick:
        led = view.trick[0][1]  # what to follow, said with the count (the group shows it too)
        if page:
            return tn(
                lang,
                "Led {cards}: follow with {count} card.",
                "Led {cards}: follow with {count} cards.",
                len(led),
                cards=cards_text(lang, led),
            )
        return tn(
            lang,
            "Led {cards}: follow with {count} card (/play …).",
            "Led {cards}: follow with {count} cards (/play …).",
            len(led),
            cards=cards_text(lang, led),
        )
    if page:
        return t(lang, "Lead a single, a pair, a tractor or a throw.")
    return t(lang, "Lead a single, a pair, a tractor or a throw (/play …).")


def trump_prompt(lang: str, suits: Sequence[str], page: bool) -> str:
    """The suits trump may be: in a chat, the letters to type beside their symbols; on the
    page, the symbols its buttons show."""
    if page:
        named = [SUIT_NAMES.get(s) or t(lang, "no trump") for s in suits]
        return t(lang, "Name trump: {choices}.", choices=t(lang, ", ").join(named))
    choices = [
        f"{s} {SUIT_NAMES[s]}" if s in SUIT_NAMES else t(lang, "none (no trump)") for s in suits
    ]  # the letters are what to type; the symbols, what they mean
    return t(lang, "Name trump: /trump {choices}.", choices=t(lang, ", ").join(choices))
