"""二七王 (Er Qi Wang): one declarer against three, jokers, 2s and 7s always trump.

The rules are those of ``docs/rules-erqiwang.md``; `ErqiwangHand` is one hand, `Rules` the
options, `ERQIWANG` the game behind the shared protocol of `engine.game`.
"""

from engine.erqiwang.deal import Deal, deal_from_seed, erqiwang_deck
from engine.erqiwang.game import ERQIWANG, ErqiwangGame
from engine.erqiwang.hand import ErqiwangHand
from engine.erqiwang.result import ErqiwangResult, SettledBonus
from engine.erqiwang.rules import PRESETS, Rules, deck_defaults
from engine.erqiwang.views import ErqiwangView

__all__ = [
    "ERQIWANG",
    "PRESETS",
    "Deal",
    "ErqiwangGame",
    "ErqiwangHand",
    "ErqiwangResult",
    "ErqiwangView",
    "Rules",
    "SettledBonus",
    "deal_from_seed",
    "deck_defaults",
    "erqiwang_deck",
]
