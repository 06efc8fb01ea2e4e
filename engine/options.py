"""Reading rule options from presets and per-table overrides, shared by both games."""

from __future__ import annotations

import dataclasses
import re
from fractions import Fraction
from typing import Any, TypeVar

from engine.errors import RecordError

R = TypeVar("R")


EXACT = re.compile(r"-?\d{1,12}(?:/\d{1,12}|\.\d{1,12})?")
"""An exact amount as written: ``2``, ``1/2``, ``0.5`` — no exponents, nothing huge (Fraction
would compute ``1e10000000`` digit by digit)."""


def parse_fraction(value: Any) -> Fraction:
    """``"1/2"``, ``0.5``, ``1`` → an exact fraction. Floats are read by their decimal text."""
    if isinstance(value, bool):
        raise ValueError("not a number")
    if isinstance(value, float):
        value = str(value)
    if isinstance(value, int) and abs(value) < 10**12:
        return Fraction(value)
    if isinstance(value, Fraction) and max(abs(value.numerator), value.denominator) < 10**12:
        return value
    if isinstance(value, str) and EXACT.fullmatch(value.strip()):
        return Fraction(value.strip())
    raise ValueError("not a small exact number")


def format_amount(value: Fraction | int) -> str:
    """Exact amounts as strings: ``"1"``, ``"-3/2"``."""
    return str(Fraction(value))


def build_rules(
    rules_type: type[R],
    presets: dict[str, dict[str, Any]],
    preset: str,
    options: dict[str, Any],
    choices: dict[str, tuple[Any, ...]],
) -> R:
    """A `rules_type` instance from a named preset plus option overrides.

    Every unknown preset, unknown option or out-of-range value raises `RecordError("bad_rules")`
    naming it, so a table setting and a record are checked the same way.
    """
    if preset not in presets:
        raise RecordError("bad_rules", f"unknown preset {preset!r}", preset=preset)
    values: dict[str, Any] = dict(presets[preset])
    fields = {f.name: f for f in dataclasses.fields(rules_type)}  # type: ignore[arg-type]
    for name, raw in options.items():
        if name not in fields or name == "preset":
            raise RecordError("bad_rules", f"unknown option {name!r}", option=name)
        values[name] = _coerce(name, raw, fields[name].default, choices.get(name))
    values["preset"] = preset
    return rules_type(**values)


def _coerce(name: str, raw: Any, default: Any, allowed: tuple[Any, ...] | None) -> Any:
    def bad() -> RecordError:
        return RecordError(
            "bad_rules", f"bad value {raw!r} for option {name!r}", option=name, value=raw
        )

    try:
        if isinstance(default, bool):
            if not isinstance(raw, bool):
                if str(raw).lower() in ("true", "on", "yes", "1"):
                    raw = True
                elif str(raw).lower() in ("false", "off", "no", "0"):
                    raw = False
                else:
                    raise bad()
            value: Any = raw
        elif isinstance(default, Fraction):
            value = parse_fraction(raw)
            if value < 0:
                raise bad()
        elif isinstance(default, int):
            if isinstance(raw, bool) or (isinstance(raw, float) and not raw.is_integer()):
                raise bad()
            value = int(raw)
            if value < 0:
                raise bad()
        else:
            value = str(raw)
    except (ValueError, TypeError, ZeroDivisionError):
        raise bad() from None
    if allowed is not None and value not in allowed:
        raise bad()
    return value
