"""四团's primer for /rules: four lines of text (`PRIMER`) and a picture of real card faces,
lowest to highest, of what beats what (`primer_picture`)."""

from __future__ import annotations

from bot.i18n import N_, t
from bot.pictures import Play, TablePicture, faces

PRIMER = N_("primer_situan")
"""Deal, what beats what, points, and how a hand ends and is scored."""
LADDER = (
    (N_("Single"), "9"),
    (N_("Pair"), "9 9"),
    (N_("Triple"), "9 9 9"),
    (N_("Bomb of 4"), "7 7 7 7"),
    (N_("Bomb of 5"), "3 3 3 3 3"),
    (N_("Four jokers"), "LJ LJ LJ BJ"),
)


def primer_picture(lang: str) -> TablePicture:
    plays = tuple(Play(t(lang, label), faces(cards)) for label, cards in LADDER)
    return TablePicture(
        "by_rank",
        t(lang, "Situan (四团): what beats what"),
        plays,
        headers=(t(lang, "39 cards each, 4 in the bottom"), t(lang, "Points: 5, 10, K")),
        result=t(
            lang,
            "Same kind, higher rank wins; a bomb beats any other play, more cards "
            "beat fewer; the four jokers beat bombs of 4.",
        ),
        pass_label=t(lang, "pass"),
    )
