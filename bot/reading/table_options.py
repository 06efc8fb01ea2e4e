"""A table's own settings beside the game's rules, and the checks every value passes at the
door: a type, a bounded range, and a refusal that says what is allowed. Nothing is stored
before it is checked."""

from __future__ import annotations

import contextlib
import math
import re
from dataclasses import dataclass, fields, replace
from fractions import Fraction
from typing import Any

from bot.i18n import N_
from bot.reading.refusals import Refusal
from engine.ai import LEVELS

AI_LEVELS = LEVELS
"""The AI levels a seat may have, weakest first (the console's ``--ai`` choices)."""


@dataclass(frozen=True, slots=True)
class TableOptions:
    """A table's own settings beside the game's rules, each of its type, checked once: at the
    door as a player types it (`with_typed`) and as storage gives it back (`from_json`).
    ``max_hands`` 0 plays on until /stop; ``pictures`` sends the private hand and the
    settlement as pictures too (beside their text) where the platform shows them (the console
    only with ``--pictures``); ``ai_level`` is the level of AI players added without one (and,
    when changed, of those seated); ``idle_minutes``: a table nobody plays at pauses, then
    closes after this many minutes, its ledger posted; ``hints_per_hand``: the /hint answers
    each player may have in a hand (0: none, as at a group's table; `UNLIMITED`);
    ``practice_mode``: ``on`` (see `practising`), ``timed`` (the same with the turn's time
    limit) or ``off``; ``rated``: each finished hand moves the players' skill ratings
    (`bot.community.skill_ratings`) — a group's administrators turn it on (quick tables are rated
    always)."""

    stake: Fraction = Fraction(1)
    ai_delay: float = 1.0
    ready_seconds: int = 60
    max_hands: int = 0
    lobby_timeout: int = 600
    mention_turn: bool = True
    pictures: bool = True
    ai_level: str = "normal"
    idle_minutes: int = 10
    hints_per_hand: int = 0
    practice_mode: str = "off"
    rated: bool = False

    @property
    def practising(self) -> bool:
        """A practice table (``/settings practice_mode on|timed``, `/practice`, the console's
        ``--practice``): hints without limit, a lesson beside each refusal, its hands kept out
        of /stats, /top and the records (stored as any hand is, for a restart and replay, but
        no ledger line is written)."""
        return self.practice_mode != "off"

    @property
    def untimed(self) -> bool:
        """A person's turn waits for them, however long (practice not asked for time)."""
        return self.practice_mode == "on"

    @property
    def hints_allowed(self) -> int:
        """Hints a player may ask for in a hand (`UNLIMITED`: no limit)."""
        return UNLIMITED if self.practising else self.hints_per_hand

    def with_typed(self, name: str, text: str) -> TableOptions:
        """These options with ``name`` set to what ``text`` says (`BadSetting`, saying what
        is allowed, when it says nothing allowed)."""
        return replace(self, **{name: read_table_option(name, text)})

    def shown(self) -> dict[str, str]:
        """Each option as /settings shows it and a player would type it back."""
        return {name: _typed_back(value) for name, value in self._values().items()}

    def to_json(self) -> dict[str, Any]:
        """The options as the stored snapshot keeps them (the stake as text: ``"1/2"``)."""
        return {
            name: str(v) if isinstance(v, Fraction) else v for name, v in self._values().items()
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableOptions:
        """The options a snapshot stored (one stored before an option existed keeps its
        default); a value of the wrong type is read as typed, so it is checked here too."""
        options = cls()
        for name, value in data.items():
            if name in TABLE_OPTION_NAMES:
                with contextlib.suppress(BadSetting):  # not one a player could set: the default
                    options = options.with_typed(name, _typed_back(value))
        return options

    def _values(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in TABLE_OPTION_NAMES}


def _typed_back(value: object) -> str:
    """A value as a player would type it: ``on``/``off``, ``0.5``, ``1/2``."""
    if value == UNLIMITED and not isinstance(value, bool):
        return UNLIMITED_WORD
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float):
        return _shown(value)
    return str(value)


TABLE_OPTION_NAMES = tuple(field.name for field in fields(TableOptions))
DEFAULTS = TableOptions()
"""A new table's options: each option's type is its default's."""
"""The table options' names, as /settings takes them."""

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
    "hints_per_hand": N_("hints each player may ask for in a hand (0: none; unlimited)"),
    "practice_mode": N_("practice: on, timed or off (hints, no time limit, not counted in /stats)"),
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
COUNTS = {"max_hands": Bounds(0, 1000), "idle_minutes": Bounds(1, 1440),
          "hints_per_hand": Bounds(0, 100)}  # fmt: skip
PRACTICE_WORDS = {**{word: "on" for word in TRUE_WORDS}, **{word: "off" for word in FALSE_WORDS},
                  "timed": "timed", "计时": "timed", "計時": "timed"}  # fmt: skip
"""``practice_mode`` as a player may write it."""
UNLIMITED_WORDS = frozenset({"unlimited", "不限", "无限", "無限"})
"""How a player says ``hints_per_hand`` has no limit (kept as `UNLIMITED_WORD`)."""
UNLIMITED_WORD = "unlimited"
UNLIMITED = -1
"""``hints_per_hand`` without a limit."""


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
    return BadSetting(
        "Say a number from {low} to {high}.", low=_shown(bounds.low), high=_shown(bounds.high)
    )


def _shown(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def read_table_option(name: str, text: str) -> Any:
    """The checked value of a table option, of its type (`BadSetting` with what is allowed)."""
    if name == "stake":
        return read_amount(text)
    if name == "ai_level":
        return read_ai_level(text)
    if name == "hints_per_hand" and text.strip().lower() in UNLIMITED_WORDS:
        return UNLIMITED
    if name == "practice_mode":
        word = PRACTICE_WORDS.get(text.strip().lower())
        if word is None:
            raise BadSetting("Say on, timed or off.")
        return word
    if isinstance(getattr(DEFAULTS, name, None), bool):
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
