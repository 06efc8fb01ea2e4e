"""四团 (Situan): 4 players in 2 teams, 3 packs less the big jokers, climbing by rank.

The rules are those of ``docs/rules-situan.md``; `SituanHand` is one hand, `Rules` a table's
options, `SITUAN` the game behind the shared protocol of `engine.game`.
"""

from engine.situan.combos import RANKS, Combo
from engine.situan.deal import Deal, deal_from_seed, situan_deck
from engine.situan.game import SITUAN, SituanGame
from engine.situan.hand import SituanHand
from engine.situan.result import SituanResult
from engine.situan.rules import PRESETS, Rules
from engine.situan.views import SituanView

__all__ = [
    "PRESETS",
    "RANKS",
    "SITUAN",
    "Combo",
    "Deal",
    "Rules",
    "SituanGame",
    "SituanHand",
    "SituanResult",
    "SituanView",
    "deal_from_seed",
    "situan_deck",
]
