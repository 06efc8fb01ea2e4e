"""The phases of a 二七王 hand, in order."""

BIDDING, TRUMP_PHASE, BURY, PLAY, OVER = "bidding", "trump", "bury", "play", "over"
TRUMP_SUITS = ("S", "H", "C", "D")
