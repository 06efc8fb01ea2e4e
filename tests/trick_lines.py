"""Checking that a table a group follows shows every finished trick (二七王: whole) or round
(四团: in one line, who took it) with its winner: the tricks the engine finished (seen by
wrapping `bot.table.playing.after_action`), and the finished tricks' lines in what the group was
sent."""

from __future__ import annotations

import re
from typing import Any

from bot.table import playing
from engine.erqiwang.events import TrickWon
from engine.events import HandEnded
from engine.situan.events import RoundWon

CLOSING = re.compile(
    r"(?:Last trick|Last round|Earlier trick|Earlier round|上一轮|更早一轮)"
    r"[:：] ?(.*) → (\S+(?: \d)?) (?:wins|takes|赢|得)"
)
"""A finished trick's line (the last one, or an earlier one the group had not been shown): its
plays, then who won it."""

ROUND_SUMMARY = re.compile(
    r"(?:Last round|Earlier round|上一轮|更早一轮)[:：] ?(\S+(?: \d)?) (?:took it with|以) "
)
"""A finished 四团 round's line: a bomb fight's plays are not repeated, only who took it
(with what, and its points)."""


def watch_finished_tricks(monkeypatch: Any) -> list[tuple[int, int]]:
    """(plays, winning seat) of every trick or round the engine finishes from now on,
    including a 四团 hand's last round, which the hand's end closes."""
    finished: list[tuple[Any, ...]] = []  # (plays shown, seat[, the round's plays])
    original = playing.after_action

    def spy(table: Any, action: Any, events: list[Any], by_player: bool) -> Any:
        for event in events:
            if isinstance(event, TrickWon) and event.plays:
                finished.append((tuple(event.plays), event.seat))
            if isinstance(event, RoundWon) and event.plays:
                finished.append(((), event.seat, tuple(event.plays)))
            if isinstance(event, HandEnded) and table.game == "situan":
                final = table.hand.view(None).last_round  # ended inside its last round
                if final and (not finished or finished[-1][-1] != final):
                    finished.append(((), [s for s, combo in final if combo][-1], final))
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
            elif (found := ROUND_SUMMARY.search(line)) is not None:
                lines.setdefault(line, (0, found[1]))
    return list(lines.values())


def expected_tricks(finished: list[Any], names: list[str]) -> list[tuple[int, str]]:
    """(plays, winner's name) of each finished trick; a 四团 round's plays count 0: its line
    names only who took it."""
    return [(len(closing[0]), names[closing[1]]) for closing in finished]
