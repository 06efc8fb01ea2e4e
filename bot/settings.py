"""A table's own settings beside the game's rules, and the checks every value passes at the
door: a type, a bounded range, and a refusal that says what is allowed. Nothing is stored
before it is checked."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from bot.i18n import N_
from bot.refusals import Refusal
from engine.ai import LEVELS

AI_LEVELS = LEVELS
"""The AI levels a seat may have, weakest first (the console's ``--ai`` choices)."""

TABLE_OPTIONS: dict[str, Any] = {
    "stake": "1",
    "ai_delay": 1.0,
    "ready_seconds": 60,
    "max_hands": 0,
    "lobby_timeout": 600,
    "mention_turn": True,
    "pictures": True,
    "ai_level": "normal",
    "idle_minutes": 10,
    "rated": False,
}
"""Table settings beside the game's rules; ``max_hands`` 0 plays on until /stop;
``pictures`` sends the private hand and the settlement as pictures too (beside their text)
where the platform shows them (the console only with ``--pictures``); ``ai_level`` is the
level of AI players added without one (and, when changed, of those seated);
``idle_minutes``: a table with no person left at it (only AI players, or players gone) closes
after this many minutes, its ledger posted; ``rated``: each finished hand moves the
players' skill ratings (`bot.ratings`) — a group's administrators turn it on (quick tables
are rated always)."""
TABLE_OPTION_TITLES: dict[str, str] = {
    "preset": N_("the rule set"),
    "stake": N_("settlement multiplier"),
    "ai_delay": N_("seconds an AI player waits before acting"),
    "ready_seconds": N_("seconds to get ready between hands"),
    "max_hands": N_("hands in the match, 0: until /stop"),
    "lobby_timeout": N_("seconds a quiet lobby stays open"),
    "mention_turn": N_("call the player in the group when a quarter of their time is left"),
    "pictures": N_("pictures of hands and settlements"),
    "ai_level": N_("level of AI players"),
    "idle_minutes": N_("minutes a table without people plays on before it closes"),
    "rated": N_("each hand moves the players' ratings (see /rating)"),
}
"""Message id of what each table setting is (the preset's too), beside its name."""
AI_LEVEL_WORDS = {
    "easy": "easy", "简单": "easy", "簡單": "easy", "容易": "easy",
    "normal": "normal", "普通": "normal", "一般": "normal",
    "hard": "hard", "困难": "hard", "困難": "hard", "难": "hard", "難": "hard",
}  # fmt: skip
"""AI levels (`engine.ai.LEVELS`) as players may write them."""

TRUE_WORDS = frozenset({"on", "true", "yes", "开", "開", "是", "开启", "開啟"})
FALSE_WORDS = frozenset({"off", "false", "no", "关", "關", "否", "关闭", "關閉"})
AMOUNT = re.compile(r"(\d{1,4})(?:/(\d{1,4}))?|(\d{1,4})\.(\d{1,3})")
"""An exact amount as people write it: ``2``, ``1/2``, ``0.5`` (small numbers only)."""
NUMBER = re.compile(r"\d{1,6}(?:\.\d{1,3})?")
MAX_AMOUNT = Fraction(1000)


class BadSetting(Refusal):
    """A table option's value refused at the door."""


@dataclass(frozen=True)
class Bounds:
    low: float
    high: float


SECONDS = {"ai_delay": Bounds(0, 30), "ready_seconds": Bounds(5, 3600),
           "lobby_timeout": Bounds(60, 86400)}  # fmt: skip
COUNTS = {"max_hands": Bounds(0, 1000), "idle_minutes": Bounds(1, 1440)}


def read_bool(text: str) -> bool:
    word = text.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise BadSetting("Say on or off (yes/no, 开/关).")


def read_ai_level(text: str) -> str:
    level = AI_LEVEL_WORDS.get(text.strip().lower())
    if level is None:
        raise BadSetting("Say easy, normal or hard (简单/普通/困难).")
    return level


def read_amount(text: str) -> Fraction:
    """A positive exact amount, numerator and denominator below 10,000, at most 1000."""
    match = AMOUNT.fullmatch(text.strip())
    if match is None:
        raise BadSetting("Say a positive amount such as 1, 2, 1/2 or 0.5 (at most 1000).")
    whole, over, units, decimals = match.groups()
    if whole is not None:
        value = Fraction(int(whole), int(over)) if over and int(over) else Fraction(int(whole))
        if over and not int(over):
            value = Fraction(0)
    else:
        value = Fraction(int(units)) + Fraction(int(decimals), 10 ** len(decimals))
    if value <= 0 or value > MAX_AMOUNT:
        raise BadSetting("Say a positive amount such as 1, 2, 1/2 or 0.5 (at most 1000).")
    return value


def read_number(text: str, bounds: Bounds, whole: bool) -> float:
    """A number within ``bounds`` written with ASCII digits (no signs, exponents, nan)."""
    cleaned = text.strip()
    if not cleaned.isascii() or NUMBER.fullmatch(cleaned) is None:
        raise _out_of_range(bounds)
    value = float(cleaned)
    if not math.isfinite(value) or not bounds.low <= value <= bounds.high:
        raise _out_of_range(bounds)
    if whole and not value.is_integer():
        raise _out_of_range(bounds)
    return value


def _out_of_range(bounds: Bounds) -> BadSetting:
    return BadSetting("Say a number from {low} to {high}.", low=_shown(bounds.low),
                      high=_shown(bounds.high))  # fmt: skip


def _shown(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def read_table_option(name: str, text: str) -> Any:
    """The checked value of a table option (`BadSetting` with what is allowed)."""
    if name == "stake":
        return str(read_amount(text))
    if name == "ai_level":
        return read_ai_level(text)
    if isinstance(TABLE_OPTIONS[name], bool):
        return read_bool(text)
    if name in SECONDS:
        value = read_number(text, SECONDS[name], whole=name != "ai_delay")
        return value if name == "ai_delay" else int(value)
    if name in COUNTS:
        return int(read_number(text, COUNTS[name], whole=True))
    raise KeyError(name)


def read_rule_value(default: Any, text: str) -> Any:
    """A rule option's value in the type of its default, checked for shape and size before
    the engine judges it against the rules (a 5,000-digit number never reaches it)."""
    if isinstance(default, bool):
        return read_bool(text)
    if isinstance(default, Fraction):
        return str(read_amount(text))
    if isinstance(default, int):
        cleaned = text.strip()
        if not (cleaned.isascii() and cleaned.isdigit() and len(cleaned) <= 6):
            raise BadSetting("Say a whole number (digits only).")
        return int(cleaned)
    cleaned = text.strip()
    if len(cleaned) > 40:
        raise BadSetting("That value is too long.")
    return cleaned
