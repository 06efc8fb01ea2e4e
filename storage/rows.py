"""The rows that cross the storage interface, both ways, and what a dump of the store is made of."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

JsonObject = dict[str, Any]


DumpRow = dict[str, Any]
"""One stored row in a portable form, its ``kind`` one of `DUMP_KINDS` (JSON kept as the
stored text): what ``Database.dump()`` yields and ``Transaction.load()`` takes."""


DUMP_KINDS: dict[str, tuple[str, ...]] = {
    "meta": ("key", "value"),
    "player": ("user", "name", "lang", "reachable"),
    "table": ("chat", "game", "state", "settings", "updated", "deadline", "turn_count",
              "saved_at"),
    "hand": ("id", "chat", "match", "number", "start", "result", "started"),
    "action": ("hand", "seq", "action", "at"),
    "ledger": ("chat", "hand", "user", "name", "amount", "first_out", "bonus"),
    "subscription": ("chat", "user", "title", "since", "told_at"),
    "achievement": ("chat", "user", "code", "at"),
    "rating": ("user", "game", "name", "mu", "sigma", "hands"),
    "rating_change": ("user", "game", "hand", "name", "mu_before", "sigma_before", "mu",
                      "sigma", "at"),
}  # fmt: skip
"""The fields of each kind of dumped row, in the order ``dump()`` yields the kinds."""


@dataclass(frozen=True, slots=True)
class TableRow:
    """A whole table snapshot; its settings carry the timer, so saving it clears the separate
    timer columns."""

    chat: str
    game: str
    state: str
    settings: JsonObject
    updated: float | None = None
    """When it was saved, on the host's clock (None: now) — what the retention of closed
    tables counts from (`Database.forget_closed_tables`)."""


class TimerRow(NamedTuple):
    """A table's timer alone, for a step that only moved the turn on (``deadline`` None: the
    hand is waiting on nobody). (The rows written at every step are named tuples: the
    cheapest immutable values to make.)"""

    chat: str
    deadline: float | None
    turn_count: int
    saved_at: float


class ActionRow(NamedTuple):
    """One accepted action, number ``seq`` (from 0) of hand ``hand_id``."""

    hand_id: int
    seq: int
    action: JsonObject


@dataclass(frozen=True, slots=True)
class LedgerLine:
    """What one player won or lost in a hand (``amount`` and ``bonus`` are fraction strings)."""

    user: str
    name: str
    amount: str
    first_out: bool
    bonus: str


@dataclass(frozen=True, slots=True)
class StoredHand:
    id: int
    number: int
    start: JsonObject
    actions: list[JsonObject]
    result: JsonObject | None


@dataclass(frozen=True, slots=True)
class FinishedHand:
    """A finished hand as records read it: when it started, its game and result, and who
    sat where — ``lines``: (player key, name, amount) per seat, in seat order."""

    id: int
    started: float
    game: str
    result: JsonObject
    lines: list[tuple[str, str, str]]


@dataclass(frozen=True, slots=True)
class StoredTable:
    chat: str
    game: str
    state: str
    settings: JsonObject
    updated: float
