"""The phases of a 二七王 hand, in order."""

from enum import StrEnum


class Phase(StrEnum):
    """Where a 二七王 hand is: bidding, naming trump, burying, playing, over. The values are
    the phases' names in views, refusals and replays."""

    BIDDING = "bidding"
    TRUMP = "trump"
    BURY = "bury"
    PLAY = "play"
    OVER = "over"


BIDDING, TRUMP_PHASE, BURY, PLAY, OVER = (
    Phase.BIDDING,
    Phase.TRUMP,
    Phase.BURY,
    Phase.PLAY,
    Phase.OVER,
)
TRUMP_SUITS = ("S", "H", "C", "D")
