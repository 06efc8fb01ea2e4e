"""四团 rule options and presets (rules-situan.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from engine.options import build_rules

PRESETS: dict[str, dict[str, Any]] = {
    "nanchang": {},
    "spade3": {"first_leader": "spade3"},
    "baomahui": {"show_multiplier": 2},
}

CHOICES: dict[str, tuple[Any, ...]] = {
    "lead_after_out": ("next", "partner"),
    "first_leader": ("flip", "spade3"),
    "dun_counted": ("dealt", "played"),
    "show_consent": ("no", "partner"),
    "turn_seconds": tuple(range(5, 3601)),
    "show_multiplier": tuple(range(1, 101)),
    "announce_at": tuple(range(0, 40)),
    "timeouts_for_auto": tuple(range(1, 11)),
}


@dataclass(frozen=True)
class Rules:
    """The options of one 四团 table. Build with `Rules.preset(name, **overrides)`."""

    preset: str = "nanchang"
    lead_after_out: str = "next"
    first_leader: str = "flip"
    announce_at: int = 11
    show_multiplier: int = 1
    show_consent: str = "no"
    """亮牌: ``no`` (the initiator alone decides and picks) or ``partner`` (the partner must
    accept, and then picks the revealed hand)."""
    early_end: bool = True
    dun_counted: str = "dealt"
    dun_value: Fraction = field(default=Fraction(1, 2))
    turn_seconds: int = 60
    timeouts_for_auto: int = 1
    """Time-outs in a hand that put a player on 托管 (seed 004: the first one)."""

    @classmethod
    def from_preset(cls, preset: str = "nanchang", **options: Any) -> Rules:
        return build_rules(cls, PRESETS, preset, options, CHOICES)

    def options(self) -> dict[str, Any]:
        """Every option with its value, JSON-friendly (fractions as text)."""
        out: dict[str, Any] = {}
        for name in self.__dataclass_fields__:
            if name == "preset":
                continue
            value = getattr(self, name)
            out[name] = str(value) if isinstance(value, Fraction) else value
        return out
