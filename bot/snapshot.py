"""A table's settings and seats as JSON for storage, and back."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from bot.seats import Seat
from bot.table import Table
from engine.game import Carry


def table_snapshot(table: Table) -> dict[str, Any]:
    return {
        "preset": table.preset,
        "options": table.options,
        "table_options": table.table_options,
        "host": table.host,
        "lang": table.lang,
        "seats": [
            None if s is None else [s.user, s.name, s.ready, s.left, s.level] for s in table.seats
        ],
        "hand_number": table.hand_number,
        "next_hand": None if table.carry is None else table.carry.to_json(),
        "ledger": {user: str(amount) for user, amount in table.ledger.items()},
        "names": table.names,
        "player_langs": table.player_langs,
        "deadline": table.deadline,
        "saved_at": table.clock(),
        "match": table.match,
        "turn_count": table.turn_count,
        "title": table.title,
        "carried_auto": sorted(table.carried_auto),
    }


def restore_table(table: Table, state: str, data: dict[str, Any]) -> None:
    """Put a stored snapshot back into a fresh table (the hand is replayed separately)."""
    table.preset = data["preset"]
    table.options = dict(data["options"])
    table.table_options.update(data["table_options"])
    table.rules = table.front.game.rules(table.preset, **table.options)
    table.host = data["host"]
    table.lang = data["lang"]
    table.state = state
    table.seats = [None if s is None else Seat(*s) for s in data["seats"]]
    table.hand_number = data["hand_number"]
    table.carry = _carry(data)
    table.ledger = {user: Fraction(amount) for user, amount in data["ledger"].items()}
    table.names = dict(data["names"])
    table.player_langs = dict(data["player_langs"])
    table.deadline = data["deadline"]
    table.match = data["match"]
    table.turn_count = data.get("turn_count", 0)
    table.title = data.get("title", "")
    table.carried_auto = set(data.get("carried_auto", ()))


def _carry(data: dict[str, Any]) -> Carry | None:
    if "next_hand" in data:
        return Carry.from_json(data["next_hand"])
    # Snapshots written before the game protocol: the first player and 四团's totals apart.
    first, totals = data.get("first"), data.get("carry")
    if first is None:
        return None
    return Carry(int(first), None if not totals else (int(totals[0]), int(totals[1])))
