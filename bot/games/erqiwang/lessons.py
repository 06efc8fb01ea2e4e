"""二七王's rules as a practice table says them beside a refusal (`bot.table.refusal_lessons`)."""

from bot.i18n import N_

LESSONS: dict[str, str] = {
    "must_follow_suit": N_(
        "Follow the suit that was led while you hold any of it (trumps follow trumps)."
    ),
    "must_follow_shape": N_(
        "Follow the lead's shape where you can: a pair with a pair, a tractor with pairs."
    ),
    "wrong_count": N_("Play as many cards as were led."),
    "throw_not_allowed": N_(
        "A throw (several cards at once) is allowed only when nobody can beat any part of it."
    ),
    "not_a_combination": N_(
        "Lead a single, a pair, a tractor (pairs in a row) or a throw of one suit."
    ),
    "bid_not_allowed": N_("Bid lower than the last bid, in steps of the bid step, or pass."),
}
"""Refusal code → the rule behind it."""
