"""二七王 rule options and presets (rules-erqiwang.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.erqiwang import deal
from engine.errors import RecordError
from engine.options import build_rules

DECK_POINTS = {1: 100, 2: 200}
"""The card points of one deck and of two (5 = 5, 10 = 10, K = 10)."""
_DECK_DEFAULTS = {
    1: {"bid_max": 60, "surrender_above": 40},
    2: {"bid_max": 120, "surrender_above": 80},
}


def deck_defaults(decks: int) -> dict[str, int]:
    """The ``bid_max`` and ``surrender_above`` a table takes when ``/settings`` switches it to
    ``decks`` (one deck halves the two-deck figures): ``{"bid_max": 60, "surrender_above": 40}``
    for 1, 120 and 80 for 2. Other values raise `RecordError("bad_rules")`."""
    if decks not in _DECK_DEFAULTS:
        raise RecordError(
            "bad_rules", f"bad value {decks!r} for option 'decks'", option="decks", value=decks
        )
    return dict(_DECK_DEFAULTS[decks])


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
        "bonus_scoring": "units",
    },
    "proportional": {"scoring": "proportional", "bonus_scoring": "units"},
    "one_deck": {"decks": 1, **_DECK_DEFAULTS[1], "bonus_scoring": "units"},
}

CHOICES: dict[str, tuple[Any, ...]] = {
    "decks": (1, 2),
    "bonus_scoring": ("units", "points"),
    "throw": ("trump_if_unbeatable", "trump_when_others_void", "none"),
    "failed_throw": ("refuse", "smallest"),
    "scoring": ("tiered", "online", "proportional"),
    "first_bidder": ("seat0", "random"),
    "bottom_multiplier": ("by_cards", "doubling"),
    "bid_step": (5, 10, 20),
    "bid_max": tuple(range(0, 201, 5)),
    "bid_min": tuple(range(0, 201, 5)),
    "surrender_above": tuple(range(0, 201, 5)),
    "turn_seconds": tuple(range(5, 3601)),
    "bury_seconds": tuple(range(5, 3601)),
    "timeouts_for_auto": tuple(range(1, 11)),
}


@dataclass(frozen=True)
class Rules:
    """The options of one 二七王 table. Build with `Rules.from_preset(name, **overrides)`."""

    preset: str = "classic"
    decks: int = 2
    bid_max: int = 120
    bid_step: int = 5
    bid_min: int = 0
    first_must_bid: bool = False
    allow_no_trump: bool = True
    throw: str = "trump_if_unbeatable"
    failed_throw: str = "refuse"
    """A trump throw ``throw`` does not allow: ``refuse`` it (the player plays again) or play
    its lowest beatable component (``smallest``), the attempt shown to all."""
    surrender_above: int = 80
    scoring: str = "tiered"
    bonus_scoring: str = "points"
    first_bidder: str = "seat0"
    bottom_needs_trump: bool = True
    bottom_multiplier: str = "by_cards"
    turn_seconds: int = 60
    bury_seconds: int = 60
    timeouts_for_auto: int = 3
    """Time-outs in a hand that put a player on 托管 (seed 001: the third)."""

    @classmethod
    def from_preset(cls, preset: str = "classic", **options: Any) -> Rules:
        rules = build_rules(cls, PRESETS, preset, options, CHOICES)
        if rules.bid_max > rules.deck_points:
            raise RecordError(
                "bad_rules",
                f"bid_max {rules.bid_max} is above the {rules.deck_points} points of "
                f"{'one deck' if rules.decks == 1 else 'two decks'}",
                option="bid_max",
                value=rules.bid_max,
                decks=rules.decks,
                most=rules.deck_points,
            )
        if rules.bid_min > rules.bid_max:
            raise RecordError("bad_rules", "bid_min is above bid_max", option="bid_min")
        return rules

    @classmethod
    def for_decks(cls, decks: int, preset: str = "classic", **options: Any) -> Rules:
        """Rules of ``preset`` switched to ``decks``, with that deck's ``bid_max`` and
        ``surrender_above`` (`deck_defaults`) unless ``options`` name them."""
        return cls.from_preset(preset, **{**deck_defaults(decks), "decks": decks, **options})

    @property
    def deck_points(self) -> int:
        """All the card points in play: 200 with two decks, 100 with one."""
        return DECK_POINTS[self.decks]

    @property
    def bottom_size(self) -> int:
        """底牌 and 扣底: 8 cards with two decks, 6 with one."""
        return deal.bottom_size(self.decks)

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat: 25 with two decks, 12 with one."""
        return deal.hand_size(self.decks)

    def options(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__ if name != "preset"}
