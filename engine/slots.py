"""Setting a frozen, slotted dataclass's fields without its generated ``__init__``.

A frozen dataclass's own ``__init__`` sets each field through ``object.__setattr__`` by name:
for the values made at most turns (a play, its event, a trick won) that is a good part of a
turn's cost in a random self-play. Those classes write their ``__init__`` with the slots' own
setters instead (`slot_setters`) and stay frozen dataclasses: the same fields, equality, hash
and repr.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def slot_setters(cls: type, *names: str) -> tuple[Callable[[Any, Any], None], ...]:
    """The setters of a slotted class's fields, in the order named."""
    return tuple(cls.__dict__[name].__set__ for name in names)
