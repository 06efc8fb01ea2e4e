"""From one 二七王 hand to the next: who bids first."""

from __future__ import annotations

from typing import Any


def next_first_bidder(result: dict[str, Any], first: int) -> int:
    """The declarer bids first again if it did not lose (没有下庄), else the seat after it; a
    hand everyone passed is dealt again with the same first bidder."""
    if result.get("redeal"):
        return first
    declarer = int(result["declarer"])
    return declarer if result["declarer_won"] else (declarer + 1) % 4
