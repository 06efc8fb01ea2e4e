"""How rows become the values the back ends store and come back: JSON text written alike on both, a
dump grouped by kind, tables and hands put back together from their columns, and the figures /stats
and /top sum from ledger lines."""

from __future__ import annotations

import json
from collections.abc import (
    Iterable,
    Iterator,
    Sequence,
)
from fractions import Fraction
from typing import Any

from storage.rows import (
    DUMP_KINDS,
    DumpRow,
    FinishedHand,
    JsonObject,
    StoredHand,
    StoredTable,
    TableRow,
)


def dump_row(kind: str, values: Sequence[Any]) -> DumpRow:
    return {"kind": kind, **dict(zip(DUMP_KINDS[kind], values, strict=True))}


def grouped(rows: Iterable[DumpRow]) -> Iterator[tuple[str, list[tuple[Any, ...]]]]:
    """Runs of rows of one kind, in order, as value tuples in `DUMP_KINDS` field order (what a
    back end's ``load`` writes with one statement per run); a bad row raises ValueError."""
    kind: str | None = None
    run: list[tuple[Any, ...]] = []
    for row in rows:
        fields = DUMP_KINDS.get(row.get("kind", ""))
        if fields is None:
            raise ValueError(f"unknown kind of row: {row.get('kind')!r}")
        missing = [name for name in fields if name not in row]
        if missing:
            raise ValueError(f"a {row['kind']} row lacks {', '.join(missing)}")
        if row["kind"] != kind:
            if kind is not None and run:
                yield kind, run
            kind, run = row["kind"], []
        run.append(tuple(row[name] for name in fields))
    if kind is not None and run:
        yield kind, run


_ENCODER = json.JSONEncoder(ensure_ascii=False, check_circular=False)
"""Made once: `json.dumps` with any option builds a new encoder at every call, and every
action is stored through here. A stored value is plain data, never circular."""


def to_json(value: JsonObject) -> str:
    return _ENCODER.encode(value)


def from_json(text: str) -> JsonObject:
    value: JsonObject = json.loads(text)
    return value


def table_values(rows: Iterable[TableRow], now: float) -> list[tuple[str, str, str, str, float]]:
    """(chat, game, state, settings JSON, updated) of tables to save, ``now`` where a row
    does not say when."""
    return [
        (
            row.chat,
            row.game,
            row.state,
            to_json(row.settings),
            now if row.updated is None else row.updated,
        )
        for row in rows
    ]


def table_from_columns(
    chat: str,
    game: str,
    state: str,
    settings: str,
    updated: float,
    deadline: float | None,
    turn_count: int | None,
    saved_at: float | None,
) -> StoredTable:
    data = from_json(settings)
    if saved_at is not None:  # the timer moved on after the settings were saved
        data.update(deadline=deadline, turn_count=turn_count, saved_at=saved_at)
    return StoredTable(chat, game, state, data, updated)


def assemble_hands(
    hands: Iterable[tuple[int, int, str, str | None]], actions: Iterable[tuple[int, str]]
) -> list[StoredHand]:
    """Hands from their rows (id, number, start, result) and the actions of all of them
    (hand id, action) in order; actions of a hand not among the rows are left out."""
    actions_of: dict[int, list[JsonObject]] = {}
    ordered = []
    for hand_id, number, start, result in hands:
        actions_of[hand_id] = []
        ordered.append((hand_id, number, start, result))
    for hand_id, action in actions:
        if hand_id in actions_of:
            actions_of[hand_id].append(from_json(action))
    return [
        StoredHand(
            hand_id,
            number,
            from_json(start),
            actions_of[hand_id],
            from_json(result) if result is not None else None,
        )
        for hand_id, number, start, result in ordered
    ]


def stats_of(lines: Sequence[tuple[str, bool, str]]) -> dict[str, Any]:
    """A player's figures from their ledger lines (amount, first out, bonus)."""
    amounts = [Fraction(amount) for amount, _, _ in lines]
    return {
        "hands": len(lines),
        "wins": sum(1 for amount in amounts if amount > 0),
        "total": str(sum(amounts, Fraction(0))),
        "first_out": sum(1 for _, first_out, _ in lines if first_out),
        "bonus_hands": sum(1 for _, _, bonus in lines if Fraction(bonus) > 0),
    }


def ranking(lines: Iterable[tuple[str, str, str]], limit: int) -> list[tuple[str, str]]:
    """The leaderboard from ledger lines (user, name, amount) in the order they were written."""
    totals: dict[str, Fraction] = {}
    names: dict[str, str] = {}
    for user, name, amount in lines:
        totals[user] = totals.get(user, Fraction(0)) + Fraction(amount)
        names[user] = name
    ranked = sorted(totals.items(), key=lambda item: item[1], reverse=True)[:limit]
    return [(names[user], str(total)) for user, total in ranked]


def assemble_finished(
    hands: Iterable[tuple[int, float, str, str]], lines: Iterable[tuple[int, str, str, str]]
) -> list[FinishedHand]:
    """Finished hands from their rows (id, started, start, result) and the ledger lines of all
    of them (hand id, user, name, amount) in the order they were written."""
    lines_of: dict[int, list[tuple[str, str, str]]] = {}
    for hand_id, user, name, amount in lines:
        lines_of.setdefault(hand_id, []).append((user, name, amount))
    return [
        FinishedHand(
            hand_id,
            float(started),
            str(from_json(start).get("game", "")),
            from_json(result),
            lines_of.get(hand_id, []),
        )
        for hand_id, started, start, result in hands
    ]
