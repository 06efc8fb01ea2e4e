"""二七王 rule options and presets (rules-erqiwang.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.options import build_rules

_COMMON: dict[str, Any] = {}

PRESETS: dict[str, dict[str, Any]] = {
    "classic": {},
    "online": {
        "bid_max": 80,
        "first_must_bid": True,
        "allow_no_trump": False,
        "throw": "trump_when_others_void",
        "scoring": "online",
        "first_bidder": "random",
        "bury_seconds": 30,
    },
    "proportional": {"scoring": "proportional"},
}

CHOICES: dict[str, tuple[Any, ...]] = {
    "throw": ("trump_if_unbeatable", "trump_when_others_void", "none"),
    "scoring": ("tiered", "online", "proportional"),
    "first_bidder": ("seat0", "random"),
    "bottom_multiplier": ("by_cards", "doubling"),
    "bid_step": (5, 10, 20),
    "bid_max": tuple(range(0, 201, 5)),
    "bid_min": tuple(range(0, 201, 5)),
    "surrender_above": tuple(range(0, 201, 5)),
    "turn_seconds": tuple(range(5, 3601)),
    "bury_seconds": tuple(range(5, 3601)),
}


@dataclass(frozen=True)
class Rules:
    """The options of one 二七王 table. Build with `Rules.from_preset(name, **overrides)`."""

    preset: str = "classic"
    bid_max: int = 120
    bid_step: int = 5
    bid_min: int = 0
    first_must_bid: bool = False
    allow_no_trump: bool = True
    throw: str = "trump_if_unbeatable"
    surrender_above: int = 80
    scoring: str = "tiered"
    first_bidder: str = "seat0"
    bottom_needs_trump: bool = True
    bottom_multiplier: str = "by_cards"
    turn_seconds: int = 60
    bury_seconds: int = 60

    @classmethod
    def from_preset(cls, preset: str = "classic", **options: Any) -> Rules:
        rules = build_rules(cls, PRESETS, preset, options, CHOICES)
        if rules.bid_min > rules.bid_max:
            from engine.errors import RecordError

            raise RecordError("bad_rules", "bid_min is above bid_max", option="bid_min")
        return rules

    def options(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__ if name != "preset"}
