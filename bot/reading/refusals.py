"""Refusals: `Refusal`, what bad input is refused with before it changes anything, and a
rule's refusal as a sentence (one per error code, for what a game's front does not explain
more precisely from the refusal's facts)."""

from __future__ import annotations

from bot.i18n import N_, t
from engine.errors import IllegalAction


class Refusal(Exception):
    """Input refused before it changed anything: ``key`` is a message id for the player
    saying what is allowed instead, written with ``values``. The commands' readers
    (`bot.games.game_front.BadInput`) and the table options' checks
    (`bot.reading.table_options.BadSetting`) raise their own kind of it; `bot.commands.steps`
    answers every one the same way."""

    def __init__(self, key: str, **values: object) -> None:
        super().__init__(key)
        self.key = key
        self.values = values


REFUSALS = {
    "wrong_phase": N_("That is not possible at this point of the hand."),
    "not_your_turn": N_("It is not your turn."),
    "not_in_hand": N_("You do not hold those cards."),
    "not_a_combination": N_("Those cards are not a combination you can play."),
    "cannot_beat": N_("That does not beat the last play."),
    "must_lead": N_("You lead this round: play something."),
    "wrong_count": N_("Play as many cards as the lead."),
    "must_follow_suit": N_("You must follow the suit that was led."),
    "must_follow_shape": N_("You must follow the lead's pairs and tractors as far as you can."),
    "throw_not_allowed": N_("That throw is not allowed."),
    "bid_not_allowed": N_("That bid is not allowed."),
    "surrender_not_allowed": N_("You may not surrender with this bid."),
    "no_bonus": N_("You have no 冲关 to declare."),
    "show_not_allowed": N_("A show is not possible now."),
    "bad_action": N_("That is not a valid action."),
}


PHASES = {
    "bidding": N_("Not now: the bidding is on (/bid N or /pass)."),
    "trump": N_("Not now: the declarer is naming trump."),
    "bury": N_("Not now: the declarer is burying."),
    "play": N_("Not now: the cards are being played; when it is your turn, play a card (/play …)."),
    "show_consent": N_("Not now: a 亮牌 waits for the partner's answer."),
    "show_pick": N_("Not now: a 亮牌 waits for its initiator to pick the hand to reveal."),
    "over": N_("The hand is over: press Ready (or /ready) for the next one."),
}
"""What a wrong-phase refusal says, by the phase the hand is in."""


def plain_refusal(lang: str, refusal: IllegalAction) -> str:
    """The code's sentence, or — for a move at the wrong moment — what the hand is doing."""
    phase = refusal.facts.get("phase")
    if refusal.code == "wrong_phase" and isinstance(phase, str) and phase in PHASES:
        return t(lang, PHASES[phase])
    return t(lang, REFUSALS.get(refusal.code, N_("That is not allowed now.")))
