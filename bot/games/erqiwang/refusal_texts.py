"""二七王's refusals as sentences: what was wrong and what is allowed instead, from the
refusal's facts and the refused seat's own view only (the suit it holds, its bury count) —
never another player's cards."""

from __future__ import annotations

from bot.i18n import N_, t
from bot.reading.refusals import plain_refusal
from bot.views.shared_texts import cards_text
from engine.cards import parse_card
from engine.erqiwang import ErqiwangView
from engine.erqiwang.order import TRUMP
from engine.erqiwang.phases import Phase
from engine.errors import IllegalAction

SUIT_BUTTONS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}


def _suit_name(lang: str, suit: object) -> str:
    if suit == "trump" or not isinstance(suit, str):
        return t(lang, "trump")
    return SUIT_BUTTONS.get(suit, suit)


def _with_held(lang: str, rule: str, view: ErqiwangView | None, suit: object) -> str:
    """The follow rule, then the refused player's own cards of the led suit, which the rule
    is about: "which of mine?" is the next question (the answer goes to that player alone)."""
    if view is None or view.order is None:
        return rule
    led = TRUMP if suit == "trump" else suit
    held = [c for c in view.order.sorted_cards(view.hand) if view.order.suit[c] == led]
    if not held:
        return rule
    return t(lang, "{rule} You hold: {cards}.", rule=rule, cards=cards_text(lang, held))


def _throw_refusal(lang: str, facts: dict[str, object]) -> str:
    """Why a throw is refused — for an unsafe one, which of the leader's own components can be
    beaten (never by whom, never anything of another player's cards)."""
    reason = facts.get("reason")
    if reason == "side_suit":
        return t(
            lang, "Side-suit cards are led as a single, a pair or a tractor, not thrown together."
        )
    if reason == "others_hold_trump":
        return t(lang, "Trumps may be thrown only when no other player holds trump.")
    if reason == "no_throws":
        return t(lang, "This table allows no throws: lead a single, a pair or a tractor.")
    cards = facts.get("cards")
    kinds = {"single": N_("single"), "pair": N_("pair"), "tractor": N_("tractor")}
    kind = kinds.get(str(facts.get("kind")))
    if kind and isinstance(cards, list):
        shown = cards_text(lang, [parse_card(str(c)) for c in cards])
        key = (
            "Not safe: another player can beat your {kind} {cards}. Lead it on its own, or "
            "throw only what nobody can beat."
        )
        return t(lang, key, kind=t(lang, kind), cards=shown)
    return t(lang, "That throw is not allowed.")


def _bid_refusal(lang: str, facts: dict[str, object]) -> str:
    if facts.get("must_bid"):
        return t(
            lang,
            "The first bidder must bid: from {highest} down to {lowest}.",
            highest=facts.get("highest"),
            lowest=facts.get("lowest"),
        )
    highest = facts.get("highest")
    if highest is None:
        return t(lang, "No bid is possible any more: pass.")
    key = "Bids go in steps of {step}, from {highest} down to {lowest}; you said {points}."
    return t(
        lang,
        key,
        step=facts.get("step"),
        highest=highest,
        lowest=facts.get("lowest"),
        points=facts.get("points"),
    )


def explained(lang: str, refusal: IllegalAction, view: ErqiwangView | None = None) -> str:
    """What was wrong and what is allowed instead, from the refusal's facts (never anything
    about another player's cards)."""
    facts, code = refusal.facts, refusal.code
    cards = facts.get("cards")
    if code == "not_in_hand" and cards:
        shown = cards_text(lang, [parse_card(c) for c in cards])
        return t(lang, "You do not hold {cards}.", cards=shown)
    if code == "bid_not_allowed":
        return _bid_refusal(lang, facts)
    if code == "wrong_count" and facts.get("burying"):
        return t(
            lang,
            "Bury exactly {wanted} cards — you chose {count}.",
            wanted=facts.get("wanted", 8),
            count=facts.get("count", 0),
        )
    if code == "wrong_count":
        return t(lang, "Play {count} cards, as many as the lead.", count=facts.get("count", 1))
    if code == "must_follow_suit":
        suit = _suit_name(lang, facts.get("suit"))
        text = t(lang, "Follow {suit}: play as many {suit} cards as you can.", suit=suit)
        return _with_held(lang, text, view, facts.get("suit"))
    if code == "must_follow_shape":
        suit = _suit_name(lang, facts.get("suit"))
        text = t(
            lang,
            "Follow the lead's pairs and tractors in {suit} as far as your {suit} cards allow.",
            suit=suit,
        )
        return _with_held(lang, text, view, facts.get("suit"))
    if code == "surrender_not_allowed":
        return t(
            lang,
            "Surrender needs a bid above {above}; the bid is {bid}.",
            above=facts.get("above", 80),
            bid=facts.get("bid", 0),
        )
    if code == "wrong_phase" and view is not None and view.seat == view.declarer:
        # The declarer is told what it is to do, never "the declarer is burying".
        if facts.get("phase") == Phase.TRUMP:
            return t(lang, "Not now: name trump first (/trump …).")
        if facts.get("phase") == Phase.BURY and not facts.get("bonus_window"):
            return t(
                lang,
                "Not now: choose {count} cards to bury first (/bury …).",
                count=len(view.bottom_shown),
            )
    if code == "wrong_phase" and facts.get("bonus_window") == "before":
        if facts.get("declarer"):
            return t(lang, "Bury first, then declare 冲关 (before your first card).")
        return t(lang, "冲关 is declared once trump is named, before your first card.")
    if code == "wrong_phase" and facts.get("bonus_window") == "after":
        return t(lang, "Too late: 冲关 is declared before your first card.")
    if code == "no_bonus" and facts.get("declared"):
        return t(lang, "Your 冲关 is declared already.")
    if code == "no_bonus":
        return t(lang, "You have no 冲关: it needs three or four jokers.")
    if code == "throw_not_allowed":
        return _throw_refusal(lang, facts)
    if code == "not_a_combination":
        return t(
            lang,
            "A lead is of one suit (all trumps are one suit): a single, a pair, "
            "a tractor, or a throw where allowed.",
        )
    if code == "bad_action" and facts.get("choices"):
        return t(lang, "Say the trump suit: /trump S, H, C, D or none")
    return plain_refusal(lang, refusal)
