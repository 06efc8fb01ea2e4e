"""What a refusal repeats of what a player typed: a short prefix at most, so that a reply
stays short whatever was typed (a 100 KB setting name was once echoed back whole)."""

from __future__ import annotations

ECHOED = 32
"""The most characters of a player's input a reply repeats."""


def echoed(text: str) -> str:
    """``text`` as a refusal may repeat it: its first `ECHOED` characters, and … when cut."""
    return text if len(text) <= ECHOED else text[:ECHOED] + "…"
