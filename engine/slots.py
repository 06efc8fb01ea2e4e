"""Setting a frozen, slotted dataclass's fields without its generated ``__init__``.

A frozen dataclass's own ``__init__`` sets each field through ``object.__setattr__`` by name:
for the values made at most turns (a play, its event, a trick won) that is a good part of a
turn's cost in a random self-play. Those classes write their ``__init__`` with the slots' own
setters instead (`slot_setters`) and stay frozen dataclasses: the same fields, equality, hash
and repr.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from typing import Any


def slot_setters(cls: type) -> tuple[Callable[[Any, Any], None], ...]:
    """The setters of a slotted dataclass's fields, in the order the dataclass declares them.

    The class's own ``__init__`` must take exactly those fields, in that order: a field added
    to the class and not to its ``__init__`` (or the other way round) fails here, when the
    class's module is imported, not at the first value made without it."""
    names = [field.name for field in dataclasses.fields(cls)]
    taken = list(inspect.signature(cls.__init__).parameters)[1:]  # type: ignore[misc]
    if taken != names:
        raise TypeError(f"{cls.__name__}.__init__ takes {taken}, but its fields are {names}")
    return tuple(cls.__dict__[name].__set__ for name in names)
