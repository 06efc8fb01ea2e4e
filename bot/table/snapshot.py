"""A table's settings and seats as JSON for storage (`Table.restore` reads it back)."""

from __future__ import annotations

from typing import Any

from bot.table.state import Table


def table_snapshot(table: Table) -> dict[str, Any]:
    return {
        "preset": table.preset,
        "options": table.options,
        "table_options": table.table_options.to_json(),
        "host": table.host,
        "lang": table.lang,
        "seats": [
            None if s is None else [s.user, s.name, s.ready, s.left, s.level, s.stands_in_for]
            for s in table.seats
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
        "alone_since": table.alone_since,
        "people_acted": table.people_acted,
        "on_hold": table.on_hold,
        "unattended": table.unattended,
        "hints": table.hints.counts(),
    }
