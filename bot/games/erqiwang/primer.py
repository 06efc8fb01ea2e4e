"""二七王's primer for /rules: four lines of text (`PRIMER`) and a picture of real card faces:
the trumps in order (with ♥ as trump), a pair, a tractor, the cards that carry points, and a
冲关 (`primer_picture`)."""

from __future__ import annotations

from bot.i18n import N_, t
from bot.pictures import Play, TablePicture, faces

PRIMER = N_("primer_erqiwang")
"""Deal and bidding, what beats what, points, and how a hand ends and is scored."""
EXAMPLES = (
    (N_("Trumps"), "BJ LJ H7 S7 H2 S2 HA HK"),
    (N_("Pair"), "S9 S9"),
    (N_("Tractor"), "S9 S9 S10 S10"),
    (N_("Points"), "S5 S10 SK"),
    (N_("冲关"), "LJ LJ BJ"),
)


def primer_picture(lang: str) -> TablePicture:
    plays = tuple(Play(t(lang, label), faces(cards)) for label, cards in EXAMPLES)
    return TablePicture(
        "as_held",
        t(lang, "Er Qi Wang (二七王): trumps highest first, ♥ as trump"),
        plays,
        headers=(t(lang, "25 cards each, 8 in the bottom"), t(lang, "The lowest bid declares")),
        result=t(lang, "Follow the suit led; the defenders win when their points reach the bid."),
        pass_label=t(lang, "pass"),
    )
