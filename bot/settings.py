"""A table's own settings, beside the game's rules."""

from __future__ import annotations

from typing import Any

TABLE_OPTIONS: dict[str, Any] = {
    "stake": "1",
    "ai_delay": 1.0,
    "ready_seconds": 60,
    "fill_with_ai": True,
    "max_hands": 0,
    "lobby_timeout": 600,
}
"""Table settings beside the game's rules; ``max_hands`` 0 plays on until /stop."""
