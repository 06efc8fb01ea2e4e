"""Rules engines for the Nanchang card games 四团 (Situan) and 二七王 (Er Qi Wang).

Pure, synchronous and deterministic: no I/O, no platform names. Both games implement one
protocol (`engine.game`): ``game_of("situan").deal(rules, seed=7)`` is a `Hand` whatever the
game, with `legal_actions`, `check`, `apply` and `view`.
"""

from engine.cards import Card, card, format_cards, parse_card, parse_cards
from engine.errors import IllegalAction, RecordError
from engine.game import Carry, Game, Hand, Result
from engine.games import GAME_NAMES, game_of

__all__ = [
    "GAME_NAMES",
    "Card",
    "Carry",
    "Game",
    "Hand",
    "IllegalAction",
    "RecordError",
    "Result",
    "card",
    "format_cards",
    "game_of",
    "parse_card",
    "parse_cards",
]
