"""二七王 (Er Qi Wang): one declarer against three, jokers, 2s and 7s always trump.

The rules are those of ``rules-erqiwang.md``; `ErqiwangHand` is one hand, `Rules` the options.
"""

from engine.erqiwang.actions import Action
from engine.erqiwang.deal import Deal, deal_from_seed, erqiwang_deck
from engine.erqiwang.rules import PRESETS, Rules
from engine.erqiwang.state import ErqiwangHand, ErqiwangView

__all__ = [
    "PRESETS",
    "Action",
    "Deal",
    "ErqiwangHand",
    "ErqiwangView",
    "Rules",
    "deal_from_seed",
    "erqiwang_deck",
]
