"""The phases of a 四团 hand."""

from enum import StrEnum


class Phase(StrEnum):
    """Where a 四团 hand is: players play; a 亮牌 waits for the partner's consent (under
    ``show_consent = partner``) or for its pick; the hand is over. The values are the phases'
    names in views, refusals and replays."""

    PLAY = "play"
    SHOW_CONSENT = "show_consent"
    SHOW_PICK = "show_pick"
    OVER = "over"


PLAY, SHOW_CONSENT, SHOW_PICK, OVER = (Phase.PLAY, Phase.SHOW_CONSENT, Phase.SHOW_PICK, Phase.OVER)
