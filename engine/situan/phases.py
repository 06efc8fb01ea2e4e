"""The phases of a 四团 hand."""

from enum import StrEnum


class Phase(StrEnum):
    """Where a 四团 hand is: players play; a 亮牌 waits for its initiator's pick; the hand is
    over. The values are the phases' names in views, refusals and replays."""

    PLAY = "play"
    SHOW_PICK = "show_pick"
    OVER = "over"


PLAY, SHOW_PICK, OVER = Phase.PLAY, Phase.SHOW_PICK, Phase.OVER
