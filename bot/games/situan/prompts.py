"""What the seat the round waits for may do now, in a line: in a chat with the commands to
type, on the web table's page (``page``) without them — its buttons do it (Play, Pass, the
亮牌's answers; `bot.page.seat_view`)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.situan import texts
from bot.i18n import N_, t
from engine.actions import Action, AnswerShow, PickShow
from engine.situan import SituanView

LINES = {
    "consent": (N_("Your partner asks for a 亮牌: /consent yes to see each other's hands and "
                   "choose which is shown to the table, or /consent no."),
                N_("Your partner asks for a 亮牌: agree to see each other's hands and choose "
                   "which is shown to the table, or refuse.")),
    "reveal": (N_("Choose the hand to reveal: /reveal me or /reveal partner."),
               N_("Choose the hand to reveal: yours or your partner's.")),
    "lead": (N_("You lead: play any combination (/play 7×4)."),
             N_("You lead: play any combination.")),
    "partner": (N_("Your partner's {play} holds the round: beat it (/play …) or /pass."),
                N_("Your partner's {play} holds the round: beat it, or pass.")),
    "beat": (N_("Beat {play} (/play …) or /pass."), N_("Beat {play}, or pass.")),
}  # fmt: skip
"""Each line: (in a chat, on the page)."""


def prompt(lang: str, view: SituanView, legal: Sequence[Action], page: bool = False) -> str:
    if any(isinstance(a, AnswerShow) for a in legal):
        return t(lang, LINES["consent"][page])
    if any(isinstance(a, PickShow) for a in legal):
        return t(lang, LINES["reveal"][page])
    if view.round_combo is None:
        return t(lang, LINES["lead"][page])
    play = texts.combo_text(lang, view.round_combo)
    if view.seat is not None and view.round_seat == (view.seat + 2) & 3:
        # Most often a pass is right here: say whose play it is, the group may lag
        return t(lang, LINES["partner"][page], play=play)
    return t(lang, LINES["beat"][page], play=play)
