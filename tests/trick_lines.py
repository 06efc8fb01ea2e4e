"""Checking that a table a group follows shows every finished trick or round whole: the
tricks the engine finished (seen by wrapping `bot.playing.after_action`), and the finished
tricks' lines in what the group was sent."""

from __future__ import annotations

import re
from typing import Any

from bot import playing
from engine.erqiwang.events import TrickWon
from engine.events import HandEnded
from engine.situan.events import RoundWon

CLOSING = re.compile(
    r"(?:Last trick|Last round|Earlier trick|Earlier round|上一轮|更早一轮)"
    r"[:：] ?(.*) → (\S+(?: \d)?) (?:wins|takes|赢|得)"
)
"""A finished trick's or round's line (the last one, or an earlier one the group had not been
shown): its plays, then who won it."""


def watch_finished_tricks(monkeypatch: Any) -> list[tuple[int, int]]:
    """(plays, winning seat) of every trick or round the engine finishes from now on,
    including a 四团 hand's last round, which the hand's end closes."""
    finished: list[tuple[tuple[Any, ...], int]] = []
    original = playing.after_action

    def spy(table: Any, action: Any, events: list[Any], by_player: bool) -> Any:
        for event in events:
            if isinstance(event, (TrickWon, RoundWon)) and event.plays:
                finished.append((tuple(event.plays), event.seat))
            if isinstance(event, HandEnded) and table.game == "situan":
                final = table.hand.view(None).last_round  # ended inside its last round
                if final and (not finished or finished[-1][0] != final):
                    finished.append((final, [s for s, combo in final if combo][-1]))
        return original(table, action, events, by_player=by_player)

    monkeypatch.setattr(playing, "after_action", spy)
    return finished  # type: ignore[return-value]


def shown_tricks(texts: list[str]) -> list[tuple[int, str]]:
    """(plays, winner's name) of each finished trick's line, in the order first seen."""
    lines: dict[str, tuple[int, str]] = {}
    for text in texts:
        for line in text.splitlines():
            if (found := CLOSING.search(line)) is not None:
                lines.setdefault(line, (found[1].count(" · ") + 1, found[2]))
    return list(lines.values())


def expected_tricks(finished: list[Any], names: list[str]) -> list[tuple[int, str]]:
    return [(len(plays), names[seat]) for plays, seat in finished]
