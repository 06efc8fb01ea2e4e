"""四团 (Situan): 4 players in 2 teams, 3 packs less the big jokers, climbing by rank.

The rules are those of ``rules-situan.md``; `SituanHand` is one hand, `Rules` a table's options.
"""

from engine.situan.actions import Action
from engine.situan.combos import RANKS, Combo
from engine.situan.deal import Deal, deal_from_seed, situan_deck
from engine.situan.rules import PRESETS, Rules
from engine.situan.state import SituanHand, SituanView

__all__ = [
    "PRESETS",
    "RANKS",
    "Action",
    "Combo",
    "Deal",
    "Rules",
    "SituanHand",
    "SituanView",
    "deal_from_seed",
    "situan_deck",
]
