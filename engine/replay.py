"""Replaying hand records: every action gets a verdict, illegal ones change nothing."""

from __future__ import annotations

import json
from typing import Any

from engine import GAME_NAMES, game_of
from engine.errors import RecordError


def replay_record(record: Any) -> dict[str, Any]:
    """Replay a parsed record; returns ``{"actions": [...], "over": ..., "result": ...}``.

    Raises `RecordError` for a malformed record.
    """
    if not isinstance(record, dict):
        raise RecordError("bad_record", "a record is a JSON object")
    game = record.get("game")
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError("bad_record", "actions is a list")
    if game in GAME_NAMES:
        return game_of(str(game)).replay(record, actions)
    raise RecordError("bad_record", f"unknown game {game!r}", game=game)


def replay_text(text: str) -> tuple[int, str]:
    """Replay a record given as JSON text: (exit code, output JSON)."""
    try:
        try:
            record = json.loads(text)
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise RecordError("bad_json", f"not valid JSON: {error}") from None
        output: dict[str, Any] = replay_record(record)
        code = 0
    except RecordError as error:
        output = {"error": error.code, "message": error.message}
        code = 2
    except RecursionError:
        output = {"error": "bad_record", "message": "the record is nested too deeply"}
        code = 2
    return code, json.dumps(output, ensure_ascii=False)
