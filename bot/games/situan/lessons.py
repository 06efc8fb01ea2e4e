"""四团's rules as a practice table says them beside a refusal (`bot.table.refusal_lessons`)."""

from bot.i18n import N_

LESSONS: dict[str, str] = {
    "not_a_combination": N_(
        "四团 plays are one rank at a time: a single, a pair, a triple, a bomb of four or more "
        "of a rank, or the four jokers."
    ),
    "cannot_beat": N_(
        "To beat the last play, play the same kind with a higher rank, or a bomb (a bigger bomb "
        "beats a smaller one); else pass."
    ),
    "must_lead": N_("You lead this round: play any combination, you cannot pass."),
}
"""Refusal code → the rule behind it."""
