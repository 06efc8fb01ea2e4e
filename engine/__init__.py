"""Rules engines for the Nanchang card games 四团 (Situan) and 二七王 (Er Qi Wang).

Pure, synchronous and deterministic: no I/O, no platform names. See ``engine.situan``.
"""

from engine.cards import Card, card, format_cards, parse_card, parse_cards
from engine.errors import IllegalAction, RecordError

__all__ = [
    "Card",
    "IllegalAction",
    "RecordError",
    "card",
    "format_cards",
    "parse_card",
    "parse_cards",
]
