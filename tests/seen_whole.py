"""Whether a group saw every finished trick (二七王) or round (四团) of a hand, judged from the
table texts it was sent and when (issue 49 (f)), for both platforms' tests.

`tests.trick_lines` compares the distinct closing lines shown with the tricks finished; two
rounds that read alike ("上一轮：Ann 以 单张9 收下，得 0 分" twice, as fast people's rounds
often do) then count once. Here each table text is placed in time instead: it was written
after the call before it reached the platform and before its own call did, so its last
closing line is one of the tricks finished between those two moments, and the lines above
it ("更早一轮") the ones just before that. A trick no text covers was never seen.
"""

from __future__ import annotations

import bisect
import time
from typing import Any

from bot.games.erqiwang.texts import trick_line
from bot.games.situan.texts import last_round_line
from bot.table import playing
from tests.live_table import TITLE
from tests.trick_lines import CLOSING, ROUND_SUMMARY, watch_finished_tricks

Closing = tuple[int, str]
"""A finished trick as a table text shows it: 二七王, (plays, its cards and who won it: "Ann：♠A ·
… → Bob"); 四团, (0, the round's line from the winner's name on: who took it, with what, its
points). The cards tell apart two tricks the same player won one after the other."""


def watch_finishing_times(monkeypatch: Any) -> tuple[list[Any], list[float]]:
    """The finished tricks (`tests.trick_lines.watch_finished_tricks`) and when each was
    finished (``time.monotonic()``, the fake platforms' clock for their calls)."""
    finished = watch_finished_tricks(monkeypatch)
    times: list[float] = []
    inner = playing.after_action

    def timed(table: Any, action: Any, events: list[Any], by_player: bool) -> Any:
        result = inner(table, action, events, by_player=by_player)
        times.extend([time.monotonic()] * (len(finished) - len(times)))
        return result

    monkeypatch.setattr(playing, "after_action", timed)
    return finished, times


def closings_of(text: str) -> list[Closing]:
    """The closing lines of one table text, in order: the earlier ones, then the last."""
    found: list[Closing] = []
    for line in text.splitlines():
        if (match := CLOSING.search(line)) is not None:
            found.append((match[1].count(" · ") + 1, f"{match[1]} → {match[2]}"))
        elif (match := ROUND_SUMMARY.search(line)) is not None:
            found.append((0, line[match.start(1) :]))
    return found


def expected_closings(finished: list[Any], table: Any) -> list[Closing]:
    """What the table's texts should show of each finished trick (`watch_finishing_times`),
    written by the game's own words."""
    names = table.seat_names()
    if table.game != "situan":
        key = "Earlier trick: {plays} → {name} wins {points}"
        lines = [trick_line(table.lang, key, closing[0], closing[1], names) for closing in finished]
    else:
        lines = [last_round_line(table.lang, closing[2], names) for closing in finished]
    return [closings_of(line)[0] for line in lines]


def unseen(
    expected: list[Closing], finished_at: list[float], texts: list[tuple[float, str]]
) -> list[str]:
    """What went wrong: the tricks no table text showed, and texts that fit no moment.
    ``texts``: (when the platform received it, text) of every call in the group."""
    seen: set[int] = set()
    wrong: list[str] = []
    before, last = float("-inf"), -1
    for at, text in texts:
        if not TITLE.search(text):
            continue
        shown = closings_of(text)
        if shown:
            low = bisect.bisect_left(finished_at, before) - 1  # finished before it was written
            high = bisect.bisect_left(finished_at, at) - 1  # at the latest before it arrived
            # The lines above the last are tricks no text showed before; the last one may
            # be shown again (the next trick is under way).
            count = len(shown)
            fits = [
                end
                for end in range(max(low, last, count - 1), high + 1)
                if expected[end - count + 1 : end + 1] == shown
                and (end - count >= last or (count == 1 and end == last))
            ]
            # Two tricks may read alike: the reading that leaves no gap is taken first.
            following = [end for end in fits if end - len(shown) == last]
            if following or last in fits:
                last = following[0] if following else last
            elif fits:
                last = fits[0]  # a gap: the tricks between were never shown
            else:
                wrong.append(f"a table text fits no moment between {low} and {high}: {shown}")
            if fits:
                seen.update(range(last - len(shown) + 1, last + 1))
        before = at
    missed = [f"{index}: {expected[index]}" for index in range(len(expected)) if index not in seen]
    if missed:
        wrong.append(f"never shown: {missed}")
    return wrong
