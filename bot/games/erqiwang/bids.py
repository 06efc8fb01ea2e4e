"""How ``/bid`` reads what players write: ``100``, ``100分`` (or ``100 分``, full-width digits),
and a pass in the auction as ``pass``, ``不叫`` or ``不要`` — the words people try first."""

from __future__ import annotations

from bot.games.game_front import BadInput
from engine.actions import Action, Bid, Pass

BID_DIGITS = 4
"""A bid is a few digits: anything longer is not a bid."""
PASS_WORDS = frozenset({"pass", "不叫", "不要"})
"""A pass in the auction, as written (不要 is play's word, but people say it here too)."""
POINTS_WORDS = ("分", "points", "point", "pts")
"""What may follow the number: ``100分``, ``100 points``."""
FULL_WIDTH_DIGITS = str.maketrans("０１２３４５６７８９", "0123456789")
"""Chinese keyboards type these; other Unicode digits (², ٣) stay no bid."""


def read_bid(seat: int, args: tuple[str, ...]) -> Action:
    """``/bid``'s arguments as a bid or a pass; `BadInput` saying both forms otherwise."""
    said = "".join(args).translate(FULL_WIDTH_DIGITS).lower()
    if said in PASS_WORDS:
        return Pass(seat)
    for word in POINTS_WORDS:
        if said.endswith(word):
            said = said.removesuffix(word)
            break
    if not (said.isascii() and said.isdigit() and len(said) <= BID_DIGITS):
        raise BadInput("Say how many points to bid, e.g. /bid 75, or /bid pass (不叫).")
    return Bid(seat, int(said))
