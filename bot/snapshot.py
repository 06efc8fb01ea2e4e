"""A table's settings and seats as JSON for storage, and back."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from bot.table import Seat, Table


def table_snapshot(table: Table) -> dict[str, Any]:
    return {
        "preset": table.preset,
        "options": table.options,
        "table_options": table.table_options,
        "host": table.host,
        "lang": table.lang,
        "seats": [None if s is None else [s.user, s.name, s.ready, s.left] for s in table.seats],
        "hand_number": table.hand_number,
        "first": table.first,
        "carry": list(table.carry) if table.carry else None,
        "ledger": {user: str(amount) for user, amount in table.ledger.items()},
        "names": table.names,
        "player_langs": table.player_langs,
        "deadline": table.deadline,
        "saved_at": table.clock(),
        "match": table.match,
        "turn_count": table.turn_count,
    }


def restore_table(table: Table, state: str, data: dict[str, Any]) -> None:
    """Put a stored snapshot back into a fresh table (the hand is replayed separately)."""
    table.preset = data["preset"]
    table.options = dict(data["options"])
    table.table_options.update(data["table_options"])
    table.rules = table.driver.rules(table.preset, table.options)
    table.host = data["host"]
    table.lang = data["lang"]
    table.state = state
    table.seats = [None if s is None else Seat(s[0], s[1], s[2], s[3]) for s in data["seats"]]
    table.hand_number = data["hand_number"]
    table.first = data["first"]
    table.carry = tuple(data["carry"]) if data["carry"] else None
    table.ledger = {user: Fraction(amount) for user, amount in data["ledger"].items()}
    table.names = dict(data["names"])
    table.player_langs = dict(data["player_langs"])
    table.deadline = data["deadline"]
    table.match = data["match"]
    table.turn_count = data.get("turn_count", 0)
